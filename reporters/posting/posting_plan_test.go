package posting

import (
	"fmt"
	"testing"

	"github.com/ocr-ci/ocr/anchor"
	"github.com/ocr-ci/ocr/anchor/udiff"
	"github.com/ocr-ci/ocr/review"
)

// planDiff adds lines 1–20 of a.go.
const planDiff = "diff --git a/a.go b/a.go\nnew file mode 100644\n--- /dev/null\n+++ b/a.go\n@@ -0,0 +1,20 @@\n" +
	"+1\n+2\n+3\n+4\n+5\n+6\n+7\n+8\n+9\n+10\n+11\n+12\n+13\n+14\n+15\n+16\n+17\n+18\n+19\n+20\n"

func planIndex(t *testing.T) *DiffIndex {
	files, err := udiff.Parse([]byte(planDiff))
	if err != nil {
		t.Fatal(err)
	}
	return NewDiffIndex(anchor.NewChangeSet(files))
}

func planFinding(line int, sev review.Severity) review.Comment {
	c := review.Comment{Location: review.Location{Path: "a.go", Side: review.SideNew, StartLine: line, EndLine: line, InHunk: true},
		Category: review.CategoryBug, Severity: sev, Content: fmt.Sprintf("finding %d", line), ExistingCode: fmt.Sprint(line)}
	c.Fingerprint = review.FingerprintOf(c)
	return c
}

// The floor keeps low findings off the pull request, file-level ones too;
// the budget keeps the most severe whatever their order; what an earlier
// run posted on this head is spent.
func TestPlanFloorAndBudget(t *testing.T) {
	cs := []review.Comment{planFinding(1, review.SeverityLow), planFinding(2, review.SeverityMedium), planFinding(3, review.SeverityMedium),
		planFinding(4, review.SeverityHigh), planFinding(5, review.SeverityCritical), planFinding(0, review.SeverityLow)}
	o := NewPlanOptions[bool](2, 0, "", nil)
	ps := Plan(cs, planIndex(t), o)
	want := []PlaceKind{PlaceBelowFloor, PlaceOverBudget, PlaceOverBudget, PlaceInline, PlaceInline, PlaceBelowFloor}
	for i, p := range ps {
		if p.Kind != want[i] {
			t.Errorf("finding %d (%s): kind %d, want %d (%s)", i, p.Severity, p.Kind, want[i], p.Note)
		}
	}
	if BelowFloor(ps) != 2 || OverBudget(ps) != 2 {
		t.Errorf("counts: %d below, %d over", BelowFloor(ps), OverBudget(ps))
	}
	o.PostedAtHead = 1
	if got := len(InlineIndexes(Plan(cs, planIndex(t), o))); got != 1 {
		t.Errorf("with one posted on this head: %d inline, want 1", got)
	}
	o = NewPlanOptions[bool](0, 0, review.SeverityLow, nil)
	if got := len(InlineIndexes(Plan(cs, planIndex(t), o))); got != 5 || o.MaxInline != DefaultMaxInline {
		t.Errorf("floor low, default budget: %d inline, want 5", got)
	}
}

// Of two findings of one severity, the budget keeps the one more passes
// found, whatever their order.
func TestPlanBudgetPrefersVotes(t *testing.T) {
	few, many := planFinding(1, review.SeverityHigh), planFinding(2, review.SeverityHigh)
	few.Votes, many.Votes = &review.Votes{Found: 2, Passes: 3}, &review.Votes{Found: 3, Passes: 3}
	ps := Plan([]review.Comment{few, many}, planIndex(t), NewPlanOptions[bool](1, 0, "", nil))
	if ps[0].Kind != PlaceOverBudget || ps[1].Kind != PlaceInline {
		t.Errorf("kinds %d, %d: the budget did not keep the finding 3/3 passes found", ps[0].Kind, ps[1].Kind)
	}
}
