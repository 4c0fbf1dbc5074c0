package github_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/reporters/internal/reportertest"
	"github.com/ocr-ci/ocr/review"
)

// TestGitHubReviewQuietOnACleanChange: a push with nothing to post writes
// nothing (no review, no summary comment: nobody is notified), also when
// its only findings are below the floor; once ocr has a summary, a clean
// push resolves the gone finding's thread and edits the summary in place,
// still without a POST.
func TestGitHubReviewQuietOnACleanChange(t *testing.T) {
	diff := reportertest.PostDiff(2)
	f := reportertest.NewGitHubFake(t, diff, reportertest.PostHead)
	rec := &reportertest.Recorder{}
	g := reportertest.NewGitHubReview(t, f, diff, rec)
	g.MinSeverity = "" // the default floor, medium
	low := reportertest.PostFinding(reportertest.KindSingle, 1, review.SeverityLow)
	for _, r := range []*review.Review{reportertest.PostReview(nil), reportertest.PostReview([]review.Comment{low})} {
		f.ResetCalls()
		if err := g.Report(context.Background(), r); err != nil {
			t.Fatal(err)
		}
		reportertest.AssertCalls(t, f, map[string]int{reportertest.RListPR: 1, reportertest.RListIssue: 1})
	}
	if logs := strings.Join(rec.Logs, "\n"); !strings.Contains(logs, "nothing new to post on pull request #7") ||
		!strings.Contains(logs, "1 finding(s) below the posting floor") {
		t.Errorf("the quiet runs are not logged:\n%s", logs)
	}

	high := reportertest.PostFinding(reportertest.KindSingle, 0, review.SeverityHigh)
	if err := g.Report(context.Background(), reportertest.PostReview([]review.Comment{high})); err != nil {
		t.Fatal(err)
	}
	f.ResetCalls()
	if err := g.Report(context.Background(), reportertest.PostReview(nil)); err != nil {
		t.Fatal(err)
	}
	reportertest.AssertCalls(t, f, map[string]int{reportertest.RListPR: 1, reportertest.RListIssue: 1, reportertest.RUser: 1,
		reportertest.RThreads: 1, reportertest.RResolve: 1, fmt.Sprintf("PATCH /repos/o/r/issues/comments/%d", f.IssueComments()[0].ID): 1})
	if s := f.IssueComments()[0].Body; !strings.Contains(s, "Resolved since the last run (1)") {
		t.Errorf("the summary edited in place does not list the resolved finding:\n%s", s)
	}
}
