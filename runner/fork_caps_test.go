package runner

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/reporters"
	"github.com/ocr-ci/ocr/review"
)

// forkCapsRepo is a pull request of 120 new files on one base commit.
func forkCapsRepo(t *testing.T) (r *testRepo, base, head string) {
	r = newTestRepo(t)
	r.write("README.md", "# r\n")
	base = r.commit("base")
	for i := range 120 {
		r.write(fmt.Sprintf("pkg/f%03d.go", i), fmt.Sprintf("package pkg\n\nvar F%03d = %d\n", i, i))
	}
	return r, base, r.commit("a pull request of 120 files")
}

// prPayload is a pull_request / pull_request_target payload as GitHub
// sends it, trimmed to what the test varies.
func prPayload(base, head, headRepo string) string {
	return fmt.Sprintf(`{"action":"synchronize","number":7,"pull_request":{"number":7,"state":"open",
	  "base":{"ref":"main","sha":%q,"repo":{"full_name":"o/r"}},
	  "head":{"ref":"feature","sha":%q,"repo":{"full_name":%q}}},
	  "repository":{"full_name":"o/r","default_branch":"main"}}`, base, head, headRepo)
}

// forkCapsCase is one CI context of TestForkCapsApplyInProgramOrder.
type forkCapsCase struct {
	name     string
	env      testEnv
	args     []string
	reviewed int
	caps     string
}

func forkCapsCases(t *testing.T, base, head string) []forkCapsCase {
	github := func(event, payload string) testEnv {
		return testEnv{"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": event, "GITHUB_EVENT_PATH": eventFile(t, payload),
			"GITHUB_REPOSITORY": "o/r", "GITHUB_SHA": base, "GITHUB_STEP_SUMMARY": ""}
	}
	gitlab := func(source string) testEnv {
		return testEnv{"GITLAB_CI": "true", "CI_PIPELINE_SOURCE": "merge_request_event", "CI_MERGE_REQUEST_IID": "3",
			"CI_MERGE_REQUEST_DIFF_BASE_SHA": base, "CI_COMMIT_SHA": head, "CI_MERGE_REQUEST_PROJECT_ID": "1",
			"CI_MERGE_REQUEST_SOURCE_PROJECT_ID": source, "CI_MERGE_REQUEST_SOURCE_PROJECT_PATH": "mallory/r"}
	}
	workflowRun := fmt.Sprintf(`{"action":"completed","workflow_run":{"head_sha":%q,"event":"pull_request","pull_requests":[],
	  "head_repository":{"full_name":"mallory/r"},"repository":{"full_name":"o/r"}},
	  "repository":{"full_name":"o/r","default_branch":"main"}}`, head)
	const lowered, defaults = "100 files, 1,000,000 tokens", "300 files, 5,000,000 tokens (the defaults)"
	return []forkCapsCase{
		{"pull_request from the repository", github("pull_request", prPayload(base, head, "o/r")), nil, 120, defaults},
		{"pull_request from a fork", github("pull_request", prPayload(base, head, "mallory/r")), nil, 100,
			lowered + " (fork pull request under pull_request: head from mallory/r)"},
		{"pull_request_target from a fork", github("pull_request_target", prPayload(base, head, "mallory/r")), nil, 100,
			lowered + " (fork pull request under pull_request_target: head from mallory/r)"},
		{"workflow_run of a fork's pull request", github("workflow_run", workflowRun), nil, 100,
			lowered + " (workflow_run of a fork's pull_request: head from mallory/r)"},
		{"GitLab merge request from the project", gitlab("1"), nil, 120, defaults},
		{"GitLab merge request from a fork", gitlab("2"), nil, 100, lowered + " (fork merge request: head from project mallory/r)"},
		{"an explicit --max-files wins", github("pull_request_target", prPayload(base, head, "mallory/r")), []string{"--max-files", "110"}, 110,
			"110 files, 1,000,000 tokens (fork pull request under pull_request_target: head from mallory/r; the other as set)"},
	}
}

// TestForkCapsApplyInProgramOrder runs the CLI as CI runs it (the
// environment and a webhook payload, nothing set by hand) on a pull
// request of 120 files: an untrusted head gets the fork caps, 100 files
// reviewed and the rest too_many, and `ocr env` says so and why. Before
// the fix the defaults filled the caps first and all 120 were reviewed.
func TestForkCapsApplyInProgramOrder(t *testing.T) {
	t.Parallel()
	r, base, head := forkCapsRepo(t)
	for _, tc := range forkCapsCases(t, base, head) {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			code, out, errs := tc.env.run(t, append([]string{"review", "--preview", "--format", "json", "--repo", r.dir}, tc.args...)...)
			if code != reporters.ExitOK {
				t.Fatalf("exit %d: %s", code, errs)
			}
			p := decodePreview(t, out)
			many := 0
			for _, f := range p.Files {
				if f.Reason == review.ReasonTooMany {
					many++
				}
			}
			if p.Totals.Reviewed != tc.reviewed || many != 120-tc.reviewed {
				t.Errorf("%d reviewed, %d too_many; want %d and %d", p.Totals.Reviewed, many, tc.reviewed, 120-tc.reviewed)
			}
			code, out, errs = tc.env.run(t, append([]string{"env", "--repo", r.dir}, tc.args...)...)
			if code == reporters.ExitIncomplete || !strings.Contains(out, "caps:") || !strings.Contains(out, tc.caps+"\n") {
				t.Errorf("ocr env (exit %d) does not show the caps %q:\n%s%s", code, tc.caps, out, errs)
			}
		})
	}
}
