package runner

import (
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/internal/testkit/fakes/githubfake"
	"github.com/ocr-ci/ocr/internal/testkit/llmtest"
	"github.com/ocr-ci/ocr/reporters"
)

// TestE2ELLMDown: when the provider refuses (401) or keeps failing (500)
// the run exits 3, every report says the review failed, and nothing is
// posted that reads like a review: no inline comments, and a sticky
// summary (if any) that says it failed.
func TestE2ELLMDown(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		answer llmtest.Answer
	}{
		{"401", llmtest.Answer{Status: 401}},
		{"500", llmtest.Answer{Status: 500, RetryAfter: "0"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := newPRRepo(t)
			gh := githubfake.New(t, githubfake.Config{Diff: prDiff(p.testRepo, p.base, p.head), Base: p.base, Head: p.head})
			llm := llmtest.New(t)
			llm.Handle(func(llmtest.Request) llmtest.Answer { return tc.answer })
			step := githubStep(t, p.testRepo, gh.URL, "llm-down", "event.json", "pull_request", p.shas())
			useLLM(t, llm)
			code, out, errs := run(t, "review", "--repo", p.dir, "--no-filter", "--fail-on", "high")
			if code != reporters.ExitIncomplete {
				t.Fatalf("exit %d, want 3\nstderr:\n%s", code, errs)
			}
			if llm.Count() == 0 {
				t.Fatal("the model was never asked")
			}
			if n := len(gh.Reviews()); n != 0 || len(gh.Comments()) != 0 {
				t.Errorf("%d reviews and %d review comments posted for a review that failed", n, len(gh.Comments()))
			}
			for _, c := range gh.IssueComments() {
				if !strings.Contains(c.Body, "**Status:** failed") {
					t.Errorf("the sticky summary does not say the review failed:\n%s", c.Body)
				}
			}
			if s := readFile(t, step.summary); !strings.Contains(strings.ToLower(s), "failed") {
				t.Errorf("the step summary does not say the review failed:\n%s", s)
			}
			if got := outputs(t, step.output); got["status"] != "failed" || got["comments"] != "0" {
				t.Errorf("$GITHUB_OUTPUT: %v", got)
			}
			for _, l := range commandLines(out) {
				if !strings.HasPrefix(l, "::add-mask::") && !strings.HasPrefix(l, "::error ") && !strings.HasPrefix(l, "::notice ") {
					t.Errorf("unexpected workflow command %q", l)
				}
			}
			t.Logf("calls %v\nstdout:\n%s\nsummary:\n%s\nsticky:%+v", gh.Calls(), out, readFile(t, step.summary), gh.IssueComments())
		})
	}
}

// TestE2EFailedReviewIsNotABaseline: a run whose review failed reviewed
// nothing, so the next run (a commit pushed once the provider is back) must
// review the whole pull request, not only the new commit.
func TestE2EFailedReviewIsNotABaseline(t *testing.T) {
	t.Parallel()
	p := newPRRepo(t)
	gh := githubfake.New(t, githubfake.Config{Diff: prDiff(p.testRepo, p.base, p.head), Base: p.base, Head: p.head})
	down := llmtest.New(t)
	down.Handle(func(llmtest.Request) llmtest.Answer { return llmtest.Answer{Status: 401} })
	step := githubStep(t, p.testRepo, gh.URL, "llm-down", "event.json", "pull_request", p.shas())
	useLLM(t, down)
	if code, _, errs := run(t, "review", "--repo", p.dir, "--no-filter"); code != reporters.ExitIncomplete {
		t.Fatalf("exit %d, want 3\nstderr:\n%s", code, errs)
	}

	p.pushCache()
	gh.Push(p.head, prDiff(p.testRepo, p.base, p.head))
	writeEvent(t, e2ePath("llm-down", "event.json"), step.event, p.shas())
	up := llmtest.New(t)
	up.Handle(func(r llmtest.Request) llmtest.Answer {
		if strings.Contains(r.FirstUser(), "cache/cache.go") {
			return cacheComments()
		}
		return storeComments()
	})
	useLLM(t, up)
	code, _, errs := run(t, "review", "--repo", p.dir, "--no-filter")
	if code != reporters.ExitOK {
		t.Fatalf("exit %d\nstderr:\n%s", code, errs)
	}
	seen := map[string]bool{}
	for _, r := range up.Requests() {
		for _, path := range []string{"store/store.go", "cache/cache.go"} {
			seen[path] = seen[path] || strings.Contains(r.FirstUser(), path)
		}
	}
	if !seen["store/store.go"] || !seen["cache/cache.go"] {
		t.Errorf("after a failed review the next run must review everything; the model saw %v\nstderr:\n%s", seen, errs)
	}
}
