package runner

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/internal/testkit/fakes/githubfake"
	"github.com/ocr-ci/ocr/internal/testkit/llmtest"
	"github.com/ocr-ci/ocr/reporters"
)

// TestE2EGitHubForkPullRequest: under pull_request a fork's token is
// read-only; nothing is written to GitHub and every finding is in the
// annotations, the step summary and the SARIF file.
func TestE2EGitHubForkPullRequest(t *testing.T) {
	t.Parallel()
	p := newPRRepo(t)
	gh := githubfake.New(t, githubfake.Config{Diff: prDiff(p.testRepo, p.base, p.head), Base: p.base, Head: p.head, HeadRepo: "someone/r"})
	llm := llmtest.New(t, storeScript(1))
	step := githubStep(t, p.testRepo, gh.URL, "github-fork", "event.json", "pull_request", p.shas())
	useLLM(t, llm)
	code, out, errs := run(t, "review", "--repo", p.dir, "--no-filter")
	if code != reporters.ExitOK {
		t.Fatalf("exit %d, want 0: a fork is not a failure\nstderr:\n%s", code, errs)
	}
	if calls := gh.Calls(); len(calls) != 0 {
		t.Errorf("a fork pull request called GitHub: %v", calls)
	}
	if !strings.Contains(errs, "the pull request comes from a fork") || strings.Contains(errs, "pull-requests: write") {
		t.Errorf("stderr does not say the fork's token is read-only, or names a permission that would not help:\n%s", errs)
	}
	if strings.Contains(errs, "ocr: ocr:") {
		t.Errorf("a poster's line has the prefix twice:\n%s", errs)
	}
	if n := len(commandLines(out)); n != 3 { // three annotations; the masks go to stderr
		t.Errorf("%d workflow commands on stdout, want 3:\n%s", n, out)
	}
	summary := readFile(t, step.summary)
	for _, want := range []string{"Dereferencing ptr", "nil check was removed", "still promises"} {
		if !strings.Contains(summary, want) {
			t.Errorf("step summary lacks %q:\n%s", want, summary)
		}
	}
	if n := strings.Count(summary, "## ocr review"); n != 1 {
		t.Errorf("the step summary was written %d times, want once (the fallback must not repeat it):\n%s", n, summary)
	}
	sarif := []byte(readFile(t, filepath.Join(p.dir, "ocr.sarif")))
	validateSchema(t, "sarif/testdata/sarif-schema-2.1.0.json", sarif)
	checkSARIF(t, sarif)
	if got := outputs(t, step.output); got["comments"] != "3" || got["status"] != "complete" {
		t.Errorf("$GITHUB_OUTPUT: %v", got)
	}
}
