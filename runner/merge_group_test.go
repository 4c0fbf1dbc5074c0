package runner

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/reporters"
	"github.com/ocr-ci/ocr/review"
)

// TestMergeGroupIgnoresQueuedConfiguration: a pull request in the merge
// queue adds .ocr/rule.json excluding its own backdoor. Under merge_group
// ocr reviews base_sha..head_sha with configuration from base_sha, so the
// backdoor is reviewed; before, it reviewed GITHUB_SHA with the queued
// head's own .ocr/ and the file was excluded.
func TestMergeGroupIgnoresQueuedConfiguration(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	r.write("main.go", "package main\n")
	base := r.commit("main")
	r.git("checkout", "-q", "-b", "feature")
	r.write("backdoor.go", "package main\n\nvar Key = \"AKIA\"\n")
	r.write(".ocr/rule.json", `{"exclude": ["backdoor.go"]}`)
	r.commit("queued pull request #42")
	// The queue's temporary branch: base_sha merged with the pull request.
	r.git("checkout", "-q", "-b", "gh-readonly-queue/main/pr-42", base)
	r.git("-c", "user.name=t", "-c", "user.email=t@localhost", "merge", "-q", "--no-ff", "-m", "Merge pull request #42", "feature")
	head := r.git("rev-parse", "HEAD")
	payload := fmt.Sprintf(`{"action":"checks_requested","merge_group":{"head_sha":%q,
	  "head_ref":"refs/heads/gh-readonly-queue/main/pr-42-%s","base_sha":%q,"base_ref":"refs/heads/main",
	  "head_commit":{"id":%q,"message":"Merge pull request #42"}},"repository":{"full_name":"o/r","default_branch":"main"}}`,
		head, base, base, head)
	env := testEnv{"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "merge_group", "GITHUB_EVENT_PATH": eventFile(t, payload),
		"GITHUB_REPOSITORY": "o/r", "GITHUB_SHA": head, "GITHUB_STEP_SUMMARY": ""}
	code, out, errs := env.run(t, "env", "--repo", r.dir) // exit 2: no model, no step summary here
	if code != reporters.ExitUsage || !strings.Contains(out, base+".."+head) || !strings.Contains(out, "config ref:    "+base) {
		t.Errorf("ocr env (exit %d) does not show base..head with configuration from base:\n%s%s", code, out, errs)
	}
	code, out, errs = env.run(t, "review", "--preview", "--format", "json", "--repo", r.dir)
	if code != reporters.ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	checkReasons(t, decodePreview(t, out), map[string]review.Reason{"backdoor.go": ""})
}
