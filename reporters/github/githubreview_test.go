package github_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ocr-ci/ocr/reporters/posting"

	"github.com/ocr-ci/ocr/reporters/internal/reportertest"

	"github.com/google/go-cmp/cmp"

	"github.com/ocr-ci/ocr/review"
)

func TestGitHubReviewFirstRunRerunAndChange(t *testing.T) {
	diff := reportertest.PostDiff(9)
	f := reportertest.NewGitHubFake(t, diff, reportertest.PostHead)
	rec := &reportertest.Recorder{}
	g := reportertest.NewGitHubReview(t, f, diff, rec)
	r := reportertest.InlineReview(25)
	if err := g.Report(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	reportertest.AssertCalls(t, f, map[string]int{reportertest.RListPR: 1, reportertest.RListIssue: 1, reportertest.RReview: 1, reportertest.RIssue: 1})
	rv := f.LastReview()
	if len(rv.Comments) != 25 || rv.Event != "COMMENT" || rv.CommitID != reportertest.PostHead {
		t.Fatalf("review: %d comments, event %q, commit %q", len(rv.Comments), rv.Event, rv.CommitID)
	}
	js, _ := json.MarshalIndent(rv.Comments[:3], "", "  ")
	reportertest.PostGolden(t, "github_first_review.golden", string(js)+"\n")
	reportertest.PostGolden(t, "github_first_summary.golden", f.IssueComments()[0].Body)

	f.ResetCalls()
	if err := g.Report(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	// The markers found are judged by their author: one GET /user, kept
	// for the rest of the reporter's life.
	reportertest.AssertCalls(t, f, map[string]int{reportertest.RListPR: 1, reportertest.RListIssue: 1, reportertest.RUser: 1})

	f.ResetCalls()
	r2 := reportertest.PostReview(append([]review.Comment{reportertest.PostFinding(reportertest.KindSingle, 8, review.SeverityHigh)}, r.Comments[1:]...))
	if err := g.Report(context.Background(), r2); err != nil {
		t.Fatal(err)
	}
	reportertest.AssertCalls(t, f, map[string]int{reportertest.RListPR: 1, reportertest.RListIssue: 1, reportertest.RReview: 1,
		reportertest.RThreads: 1, reportertest.RResolve: 1, fmt.Sprintf("PATCH /repos/o/r/issues/comments/%d", f.IssueComments()[0].ID): 1})
	if rv := f.LastReview(); len(rv.Comments) != 1 || *rv.Comments[0].Line != 42 {
		t.Errorf("second review: %+v", rv.Comments)
	}
	if s := f.IssueComments()[0].Body; !strings.Contains(s, "Resolved since the last run (1)") || !strings.Contains(s, "discussion_r") {
		t.Errorf("summary does not list the resolved finding:\n%s", s)
	}
	if st, ok := posting.ReadState(f.IssueComments()[0].Body); !ok || st.Head != reportertest.PostHead || st.Config != "cfg1" {
		t.Errorf("ReadState = %+v, %v", st, ok)
	}
	if st, ok, err := g.LastState(context.Background()); err != nil || !ok || st.Head != reportertest.PostHead {
		t.Errorf("LastState = %+v, %v, %v", st, ok, err)
	}
}

func TestGitHubReviewPaginatesExistingComments(t *testing.T) {
	diff := reportertest.PostDiff(9)
	f := reportertest.NewGitHubFake(t, diff, reportertest.PostHead)
	f.SetPerPage(10)
	g := reportertest.NewGitHubReview(t, f, diff, &reportertest.Recorder{})
	r := reportertest.InlineReview(25)
	if err := g.Report(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	f.ResetCalls()
	if err := g.Report(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	reportertest.AssertCalls(t, f, map[string]int{reportertest.RListPR: 3, reportertest.RListIssue: 1, reportertest.RUser: 1})
}

func TestGitHubReviewForkMakesNoWrites(t *testing.T) {
	diff := reportertest.PostDiff(2)
	f := reportertest.NewGitHubFake(t, diff, reportertest.PostHead)
	rec := &reportertest.Recorder{}
	g := reportertest.NewGitHubReview(t, f, diff, rec)
	g.Fork = true
	f.AddIssueComment(mallory, forgedSummary(t)) // the fork's author
	if _, ok, err := g.LastState(context.Background()); ok || err != nil {
		t.Errorf("LastState with a read-only token: ok %v err %v", ok, err)
	}
	if err := g.Report(context.Background(), reportertest.InlineReview(5)); err != nil {
		t.Fatal(err)
	}
	reportertest.AssertCalls(t, f, map[string]int{})
	if rec.Reports != 1 || len(rec.Logs) != 1 || !strings.Contains(rec.Logs[0], "comes from a fork") ||
		strings.Contains(rec.Logs[0], "pull-requests: write") || strings.Contains(rec.Logs[0], "no GitHub token") {
		t.Errorf("fallback reports %d, logs %q; want one line blaming the fork, not a permission", rec.Reports, rec.Logs)
	}
}

// Without a token nothing is sent, and the notice says how to give one
// and which permissions the job needs, not that the pull request is a fork.
func TestGitHubReviewNoTokenSaysHowToGiveOne(t *testing.T) {
	diff := reportertest.PostDiff(2)
	f := reportertest.NewGitHubFake(t, diff, reportertest.PostHead)
	rec := &reportertest.Recorder{}
	g := reportertest.NewGitHubReview(t, f, diff, rec)
	g.Token = ""
	// The earlier review cannot be looked up: the error says so and what
	// to set (the log then does not claim there was none).
	_, ok, err := g.LastState(context.Background())
	if ok || err == nil || !strings.Contains(err.Error(), "no token") || !strings.Contains(err.Error(), "GITHUB_TOKEN") {
		t.Errorf("LastState without a token: ok %v err %v; want an error naming the token to set", ok, err)
	}
	if err := g.Report(context.Background(), reportertest.InlineReview(5)); err != nil {
		t.Fatal(err)
	}
	reportertest.AssertCalls(t, f, map[string]int{})
	logs := strings.Join(rec.Logs, "\n")
	for _, want := range []string{"no GitHub token", "GITHUB_TOKEN", "github-token", "OCR_GITHUB_TOKEN", "pull-requests: write", "contents: read"} {
		if !strings.Contains(logs, want) {
			t.Errorf("the notice lacks %q: %q", want, logs)
		}
	}
	if rec.Reports != 1 || strings.Contains(logs, "fork") {
		t.Errorf("fallback reports %d, logs %q; want the review in the fallback and no fork blamed", rec.Reports, logs)
	}
}

func TestGitHubReviewForbiddenAtPostingFallsBack(t *testing.T) {
	diff := reportertest.PostDiff(2)
	f := reportertest.NewGitHubFake(t, diff, reportertest.PostHead)
	f.SetReadOnly(true)
	rec := &reportertest.Recorder{}
	if err := reportertest.NewGitHubReview(t, f, diff, rec).Report(context.Background(), reportertest.InlineReview(5)); err != nil {
		t.Fatalf("a 403 must not fail the run: %v", err)
	}
	reportertest.AssertCalls(t, f, map[string]int{reportertest.RListPR: 1, reportertest.RListIssue: 1, reportertest.RReview: 1})
	logs := strings.Join(rec.Logs, "\n")
	for _, want := range []string{"the token cannot write", "Resource not accessible by integration", "pull-requests: write", "contents: read"} {
		if !strings.Contains(logs, want) {
			t.Errorf("the notice lacks %q: %q", want, logs)
		}
	}
	if rec.Reports != 1 || strings.Contains(logs, "fork") {
		t.Errorf("fallback reports %d, logs %q; a same-repository 403 is a missing permission, not a fork", rec.Reports, logs)
	}
}

func TestGitHubReviewSecondaryLimitRetriedOnce(t *testing.T) {
	diff := reportertest.PostDiff(2)
	f := reportertest.NewGitHubFake(t, diff, reportertest.PostHead)
	f.SecondaryLimitOnce()
	rec := &reportertest.Recorder{}
	if err := reportertest.NewGitHubReview(t, f, diff, rec).Report(context.Background(), reportertest.InlineReview(4)); err != nil {
		t.Fatal(err)
	}
	reportertest.AssertCalls(t, f, map[string]int{reportertest.RListPR: 1, reportertest.RListIssue: 1, reportertest.RReview: 2, reportertest.RIssue: 1})
	if d := cmp.Diff([]time.Duration{7 * time.Second}, longSleeps(rec.Sleeps)); d != "" {
		t.Errorf("sleeps (-want +got):\n%s", d)
	}
	if len(f.Reviews()) != 1 {
		t.Errorf("%d reviews posted, want 1", len(f.Reviews()))
	}
}

func TestGitHubReviewReconcilesFailedPost(t *testing.T) {
	diff := reportertest.PostDiff(2)
	f := reportertest.NewGitHubFake(t, diff, reportertest.PostHead)
	f.FailReviewOnce(502)
	if err := reportertest.NewGitHubReview(t, f, diff, &reportertest.Recorder{}).Report(context.Background(), reportertest.InlineReview(4)); err != nil {
		t.Fatal(err)
	}
	reportertest.AssertCalls(t, f, map[string]int{reportertest.RListPR: 2, reportertest.RListIssue: 1, reportertest.RUser: 1, reportertest.RReview: 1, reportertest.RIssue: 1})
}

// TestGitHubReviewReconcilePostsAgainWhenNotCreated covers the branch of the
// reconcile that can duplicate a review: the review POST failed (502) and
// GitHub did not create it, so the markers are absent and the review is
// sent once more. Exactly one review, each finding once, must result.
func TestGitHubReviewReconcilePostsAgainWhenNotCreated(t *testing.T) {
	diff := reportertest.PostDiff(2)
	f := reportertest.NewGitHubFake(t, diff, reportertest.PostHead)
	f.FailReviewUncreatedOnce(502)
	rec := &reportertest.Recorder{}
	rv := reportertest.InlineReview(4)
	if err := reportertest.NewGitHubReview(t, f, diff, rec).Report(context.Background(), rv); err != nil {
		t.Fatal(err)
	}
	reportertest.AssertCalls(t, f, map[string]int{reportertest.RListPR: 2, reportertest.RListIssue: 1,
		reportertest.RReview: 2, reportertest.RIssue: 1})
	if n := len(f.Reviews()); n != 1 {
		t.Fatalf("%d reviews created, want exactly 1", n)
	}
	seen := map[string]int{}
	for _, c := range f.Comments() {
		seen[c.Path+":"+strconv.Itoa(deref(c.Line))+":"+c.Body]++
	}
	if len(f.Comments()) != len(rv.Comments) {
		t.Errorf("%d inline comments for %d findings: %v", len(f.Comments()), len(rv.Comments), seen)
	}
	for k, n := range seen {
		if n > 1 {
			t.Errorf("%s commented %d times", k, n)
		}
	}
	if !strings.Contains(strings.Join(rec.Logs, "\n"), "checking whether it was created") || rec.Reports != 0 {
		t.Errorf("logs %q, fallback reports %d: want the reconcile notice and no fallback", rec.Logs, rec.Reports)
	}
}

// TestGitHubReviewReconcileGivesUpAfterASecondFailure: when the review is
// still not created on the one retry, its findings go to the summary and
// the error is returned; nothing is posted twice.
func TestGitHubReviewReconcileGivesUpAfterASecondFailure(t *testing.T) {
	diff := reportertest.PostDiff(2)
	f := reportertest.NewGitHubFake(t, diff, reportertest.PostHead)
	f.FailReviewUncreatedOnce(502)
	g := reportertest.NewGitHubReview(t, f, diff, &reportertest.Recorder{})
	g.Logf = func(format string, _ ...any) {
		if strings.Contains(format, "checking whether it was created") {
			f.FailReviewUncreatedOnce(503) // the retry fails too
		}
	}
	err := g.Report(context.Background(), reportertest.InlineReview(4))
	if err == nil || !strings.Contains(err.Error(), "503") {
		t.Errorf("err = %v, want the 503 of the retry", err)
	}
	if n := len(f.Reviews()); n != 0 {
		t.Errorf("%d reviews created, want none", n)
	}
	if len(f.IssueComments()) != 1 || !strings.Contains(f.IssueComments()[0].Body, "the review could not be posted") {
		t.Errorf("summary comments %d: want one naming the findings the review could not post", len(f.IssueComments()))
	}
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
	diff := reportertest.PostDiff(2)
	f := reportertest.NewGitHubFake(t, diff, reportertest.PostHead)
	g := reportertest.NewGitHubReview(t, f, diff, &reportertest.Recorder{})
	g.HeadSHA = "5555555555555555555555555555555555555555" // GITHUB_SHA's merge commit
	err := g.Report(context.Background(), reportertest.InlineReview(6))
	if err == nil || !strings.Contains(err.Error(), "GITHUB_SHA") {
		t.Errorf("err = %v", err)
	}
	reportertest.AssertCalls(t, f, map[string]int{reportertest.RListPR: 1, reportertest.RListIssue: 1, reportertest.RReview: 1, reportertest.RIssue: 1})
	if s := f.IssueComments()[0].Body; !strings.Contains(s, "0 posted as review comments, 6 listed in this summary") {
		t.Errorf("summary:\n%s", s)
	}
}

func deref(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}
