package posting_test

import (
	"testing"

	"github.com/ocr-ci/ocr/reporters/internal/reportertest"
	"github.com/ocr-ci/ocr/reporters/posting"
	"github.com/ocr-ci/ocr/review"
)

// TestSummaryListsOverBudget: the findings over the inline budget of the
// push are listed in the summary, folded like those below the floor, not
// only counted: they are more severe than those, and the summary is where
// people on the pull request read what was not posted.
func TestSummaryListsOverBudget(t *testing.T) {
	diff := reportertest.PostDiff(6)
	var cs []review.Comment
	for k := range 5 {
		cs = append(cs, reportertest.PostFinding(k%3, k/3, review.SeverityHigh))
	}
	cs = append(cs, reportertest.PostFinding(2, 1, review.SeverityLow))
	r := reportertest.PostReview(cs)
	ps := posting.Plan(r.Comments, posting.NewDiffIndex(reportertest.PostChangeSet(t, diff)), posting.NewPlanOptions[bool](2, 0, "", nil))
	if posting.OverBudget(ps) != 3 || posting.BelowFloor(ps) != 1 {
		t.Fatalf("plan: %d over the budget, %d below the floor; want 3 and 1", posting.OverBudget(ps), posting.BelowFloor(ps))
	}
	body := posting.StickySummary(posting.StickyInput{Review: r, Placements: ps})
	md := reportertest.Render(body)
	if !md.InHTML("<details><summary>Over the inline budget of this push, not posted inline (3): 3 high</summary>") {
		t.Errorf("the summary has no folded section of the 3 findings over the budget:\n%s", body)
	}
	if !md.InHTML("<details><summary>Below the posting floor (1): 1 low</summary>") {
		t.Errorf("the section below the floor is gone:\n%s", body)
	}
	for i, p := range ps {
		if p.Kind == posting.PlaceOverBudget && !md.InCode(p.Path) {
			t.Errorf("finding %d over the budget (%s) is not listed:\n%s", i, p.Path, body)
		}
	}
}
