package github_test

import (
	"context"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/reporters/internal/reportertest"
	"github.com/ocr-ci/ocr/review"
)

// floorReview has, in the pipeline's order, 6 low, 4 medium, 4 high and
// 4 critical inline findings: the least severe first, so the budget must
// choose by severity, not by order.
func floorReview() *review.Review {
	var cs []review.Comment
	for i, n := range []int{6, 4, 4, 4} {
		sev := []review.Severity{review.SeverityLow, review.SeverityMedium, review.SeverityHigh, review.SeverityCritical}[i]
		for range n {
			k := len(cs)
			cs = append(cs, reportertest.PostFinding(k%3, k/3, sev))
		}
	}
	return reportertest.PostReview(cs)
}

func TestGitHubReviewFloorAndBudget(t *testing.T) {
	diff := reportertest.PostDiff(6)
	f := reportertest.NewGitHubFake(t, diff, reportertest.PostHead)
	g := reportertest.NewGitHubReview(t, f, diff, &reportertest.Recorder{})
	g.MinSeverity, g.MaxInline = "", 0 // the defaults: medium, 10
	if err := g.Report(context.Background(), floorReview()); err != nil {
		t.Fatal(err)
	}
	rv := f.LastReview()
	got := map[string]int{}
	for _, c := range rv.Comments {
		got[strings.SplitN(c.Body, "**", 3)[1]]++
	}
	if want := map[string]int{"Critical": 4, "High": 4, "Medium": 2}; len(rv.Comments) != 10 || got["Critical"] != 4 || got["High"] != 4 || got["Medium"] != 2 {
		t.Errorf("posted %v, want %v", got, want)
	}
	body := f.IssueComments()[0].Body
	md := reportertest.Render(body)
	if !md.InHTML("<details><summary>Below the posting floor (6): 6 low</summary>") {
		t.Errorf("the summary has no folded section of the 6 low findings:\n%s", body)
	}
	if !strings.Contains(body, "2 more in the SARIF report") {
		t.Errorf("the summary does not count the 2 findings over the budget:\n%s", body)
	}
	for i := range 6 {
		if !md.InCode(reportertest.PostFinding(i%3, i/3, review.SeverityLow).Path) {
			t.Errorf("finding %d below the floor is not listed", i)
		}
	}

	// A re-run of the same push spends what is left of its budget: nothing.
	f.ResetCalls()
	if err := g.Report(context.Background(), floorReview()); err != nil {
		t.Fatal(err)
	}
	reportertest.AssertCalls(t, f, map[string]int{reportertest.RListPR: 1, reportertest.RListIssue: 1, reportertest.RUser: 1})
}
