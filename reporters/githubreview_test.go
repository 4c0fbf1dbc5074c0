package reporters_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/ocr-ci/ocr/internal/fakes/githubfake"
	"github.com/ocr-ci/ocr/reporters"
	"github.com/ocr-ci/ocr/review"
)

const (
	rListPR    = "GET /repos/o/r/pulls/7/comments"
	rListIssue = "GET /repos/o/r/issues/7/comments"
	rReview    = "POST /repos/o/r/pulls/7/reviews"
	rIssue     = "POST /repos/o/r/issues/7/comments"
	rUser      = githubfake.RouteUser
)

// newGitHubFake serves pull request o/r#7 with diff at head, token "tok".
func newGitHubFake(t testing.TB, diff, head string) *githubfake.Server {
	return githubfake.New(t, githubfake.Config{Diff: diff, Head: head, Base: postBase})
}

func newGitHubReview(t testing.TB, f *githubfake.Server, diff string, rec *postRecorder) *reporters.GitHubReview {
	return &reporters.GitHubReview{BaseURL: f.URL, Token: "tok", HTTPClient: f.Client(),
		Owner: "o", Repo: "r", PR: 7, HeadSHA: postHead, Changes: postChangeSet(t, diff),
		ConfigHash: "cfg1", Fallback: rec, Logf: rec.Logf, Sleep: rec.Sleep}
}

func postAssertCalls(t *testing.T, f interface{ Calls() map[string]int }, want map[string]int) {
	t.Helper()
	if d := cmp.Diff(want, f.Calls()); d != "" {
		t.Errorf("API calls (-want +got):\n%s", d)
	}
}

func TestGitHubReviewFirstRunRerunAndChange(t *testing.T) {
	diff := postDiff(9)
	f := newGitHubFake(t, diff, postHead)
	rec := &postRecorder{}
	g := newGitHubReview(t, f, diff, rec)
	r := inlineReview(25)
	if err := g.Report(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	postAssertCalls(t, f, map[string]int{rListPR: 1, rListIssue: 1, rReview: 1, rIssue: 1})
	rv := f.LastReview()
	if len(rv.Comments) != 25 || rv.Event != "COMMENT" || rv.CommitID != postHead {
		t.Fatalf("review: %d comments, event %q, commit %q", len(rv.Comments), rv.Event, rv.CommitID)
	}
	js, _ := json.MarshalIndent(rv.Comments[:3], "", "  ")
	postGolden(t, "github_first_review.golden", string(js)+"\n")
	postGolden(t, "github_first_summary.golden", f.IssueComments()[0].Body)

	f.ResetCalls()
	if err := g.Report(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	// The markers found are judged by their author: one GET /user, kept
	// for the rest of the reporter's life.
	postAssertCalls(t, f, map[string]int{rListPR: 1, rListIssue: 1, rUser: 1})

	f.ResetCalls()
	r2 := postReview(append([]review.Comment{postFinding(kindSingle, 8, review.SeverityHigh)}, r.Comments[1:]...))
	if err := g.Report(context.Background(), r2); err != nil {
		t.Fatal(err)
	}
	postAssertCalls(t, f, map[string]int{rListPR: 1, rListIssue: 1, rReview: 1, fmt.Sprintf("PATCH /repos/o/r/issues/comments/%d", f.IssueComments()[0].ID): 1})
	if rv := f.LastReview(); len(rv.Comments) != 1 || *rv.Comments[0].Line != 42 {
		t.Errorf("second review: %+v", rv.Comments)
	}
	if s := f.IssueComments()[0].Body; !strings.Contains(s, "Resolved since the last run (1)") || !strings.Contains(s, "discussion_r") {
		t.Errorf("summary does not list the resolved finding:\n%s", s)
	}
	if st, ok := reporters.ReadState(f.IssueComments()[0].Body); !ok || st.Head != postHead || st.Config != "cfg1" {
		t.Errorf("ReadState = %+v, %v", st, ok)
	}
	if st, ok, err := g.LastState(context.Background()); err != nil || !ok || st.Head != postHead {
		t.Errorf("LastState = %+v, %v, %v", st, ok, err)
	}
}

func TestGitHubReviewPaginatesExistingComments(t *testing.T) {
	diff := postDiff(9)
	f := newGitHubFake(t, diff, postHead)
	f.SetPerPage(10)
	g := newGitHubReview(t, f, diff, &postRecorder{})
	r := inlineReview(25)
	if err := g.Report(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	f.ResetCalls()
	if err := g.Report(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	postAssertCalls(t, f, map[string]int{rListPR: 3, rListIssue: 1, rUser: 1})
}

func TestGitHubReviewForkMakesNoWrites(t *testing.T) {
	diff := postDiff(2)
	f := newGitHubFake(t, diff, postHead)
	rec := &postRecorder{}
	g := newGitHubReview(t, f, diff, rec)
	g.ReadOnly = true
	f.AddIssueComment(mallory, forgedSummary(t)) // the fork's author
	if _, ok, err := g.LastState(context.Background()); ok || err != nil {
		t.Errorf("LastState with a read-only token: ok %v err %v", ok, err)
	}
	if err := g.Report(context.Background(), inlineReview(5)); err != nil {
		t.Fatal(err)
	}
	postAssertCalls(t, f, map[string]int{})
	if rec.reports != 1 || len(rec.logs) != 1 || !strings.Contains(rec.logs[0], "pull-requests: write") {
		t.Errorf("fallback reports %d, logs %q", rec.reports, rec.logs)
	}
}

func TestGitHubReviewForbiddenAtPostingFallsBack(t *testing.T) {
	diff := postDiff(2)
	f := newGitHubFake(t, diff, postHead)
	f.SetReadOnly(true)
	rec := &postRecorder{}
	if err := newGitHubReview(t, f, diff, rec).Report(context.Background(), inlineReview(5)); err != nil {
		t.Fatalf("a 403 must not fail the run: %v", err)
	}
	postAssertCalls(t, f, map[string]int{rListPR: 1, rListIssue: 1, rReview: 1})
	if rec.reports != 1 || !strings.Contains(strings.Join(rec.logs, "\n"), "pull-requests: write") {
		t.Errorf("fallback reports %d, logs %q", rec.reports, rec.logs)
	}
}

func TestGitHubReviewSecondaryLimitRetriedOnce(t *testing.T) {
	diff := postDiff(2)
	f := newGitHubFake(t, diff, postHead)
	f.SecondaryLimitOnce()
	rec := &postRecorder{}
	if err := newGitHubReview(t, f, diff, rec).Report(context.Background(), inlineReview(4)); err != nil {
		t.Fatal(err)
	}
	postAssertCalls(t, f, map[string]int{rListPR: 1, rListIssue: 1, rReview: 2, rIssue: 1})
	if d := cmp.Diff([]time.Duration{7 * time.Second}, longSleeps(rec.sleeps)); d != "" {
		t.Errorf("sleeps (-want +got):\n%s", d)
	}
	if len(f.Reviews()) != 1 {
		t.Errorf("%d reviews posted, want 1", len(f.Reviews()))
	}
}

func TestGitHubReviewReconcilesFailedPost(t *testing.T) {
	diff := postDiff(2)
	f := newGitHubFake(t, diff, postHead)
	f.FailReviewOnce(502)
	if err := newGitHubReview(t, f, diff, &postRecorder{}).Report(context.Background(), inlineReview(4)); err != nil {
		t.Fatal(err)
	}
	postAssertCalls(t, f, map[string]int{rListPR: 2, rListIssue: 1, rUser: 1, rReview: 1, rIssue: 1})
}

// longSleeps drops the ≤1 s gaps the limiter leaves between writes.
func longSleeps(ds []time.Duration) []time.Duration {
	var out []time.Duration
	for _, d := range ds {
		if d > time.Second {
			out = append(out, d)
		}
	}
	return out
}

func TestGitHubReviewWrongCommitIsNotBisected(t *testing.T) {
	diff := postDiff(2)
	f := newGitHubFake(t, diff, postHead)
	g := newGitHubReview(t, f, diff, &postRecorder{})
	g.HeadSHA = "5555555555555555555555555555555555555555" // GITHUB_SHA's merge commit
	err := g.Report(context.Background(), inlineReview(6))
	if err == nil || !strings.Contains(err.Error(), "GITHUB_SHA") {
		t.Errorf("err = %v", err)
	}
	postAssertCalls(t, f, map[string]int{rListPR: 1, rListIssue: 1, rReview: 1, rIssue: 1})
	if s := f.IssueComments()[0].Body; !strings.Contains(s, "0 posted as review comments, 6 listed in this summary") {
		t.Errorf("summary:\n%s", s)
	}
}
