package runner

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/internal/testkit/fakes/githubfake"
	"github.com/ocr-ci/ocr/internal/testkit/llmtest"
	"github.com/ocr-ci/ocr/reporters"
)

// TestE2EShallowClone is actions/checkout's default: a depth-1 clone of
// the pull request's head whose merge base with the base branch is 60
// commits behind the base's tip. ocr fetches and deepens, says so, and
// reviews the right range.
func TestE2EShallowClone(t *testing.T) {
	t.Parallel()
	origin := newPRRepo(t)
	origin.base = appendCommits(t, origin.testRepo, "main", 60)
	cloneDir := filepath.Join(t.TempDir(), "clone")
	origin.git("clone", "-q", "--depth", "1", "--branch", "feature", "file://"+origin.dir, cloneDir)
	clone := prRepo{testRepo: &testRepo{t: t, dir: cloneDir}, root: origin.root, base: origin.base, head: origin.head}
	if got := clone.git("rev-parse", "--is-shallow-repository"); got != "true" {
		t.Fatalf("the clone is not shallow: %s", got)
	}

	gh := githubfake.New(t, githubfake.Config{Diff: prDiff(origin.testRepo, origin.base, origin.head), Base: origin.base, Head: origin.head})
	llm := llmtest.New(t, storeScript(1))
	githubStep(t, clone.testRepo, gh.URL, "shallow", "event.json", "pull_request", clone.shas())
	useLLM(t, llm)
	code, _, errs := run(t, "review", "--repo", clone.dir, "--no-filter")
	if code != reporters.ExitOK {
		t.Fatalf("exit %d\nstderr:\n%s", code, errs)
	}
	if !strings.Contains(errs, "deepened the shallow clone") {
		t.Errorf("stderr does not say the clone was deepened:\n%s", errs)
	}
	rv := gh.LastReview()
	if rv.CommitID != origin.head || len(rv.Comments) != 3 {
		t.Errorf("review on %s with %d comments, want 3 on %s", rv.CommitID, len(rv.Comments), origin.head)
	}
	for _, r := range llm.Requests() {
		if strings.Contains(r.FirstUser(), "HISTORY.md") {
			t.Errorf("the base branch's own commits were reviewed: the range is not merge-base..head")
		}
	}
}

// appendCommits adds n commits to branch with one git fast-import (60
// commits one by one cost 120 processes) and returns the new tip.
func appendCommits(t *testing.T, r *testRepo, branch string, n int) string {
	t.Helper()
	var b strings.Builder
	for i := 0; i < n; i++ {
		msg, content := fmt.Sprintf("%s %d\n", branch, i), fmt.Sprintf("change %d\n", i)
		fmt.Fprintf(&b, "commit refs/heads/%s\ncommitter t <t@localhost> %d +0000\ndata %d\n%s", branch, 1700000000+i, len(msg), msg)
		if i == 0 {
			fmt.Fprintf(&b, "from refs/heads/%s^0\n", branch)
		}
		fmt.Fprintf(&b, "M 100644 inline HISTORY.md\ndata %d\n%s\n", len(content), content)
	}
	cmd := exec.CommandContext(context.Background(), "git", "fast-import", "--quiet")
	cmd.Dir, cmd.Stdin = r.dir, strings.NewReader(b.String())
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git fast-import: %v\n%s", err, out)
	}
	return r.git("rev-parse", "refs/heads/"+branch)
}
