package posting

import (
	"testing"

	"github.com/ocr-ci/ocr/review"
)

func TestFindingOfReadsCommentBody(t *testing.T) {
	c := review.Comment{Location: review.Location{Path: "svc/calc.go", Side: review.SideNew, StartLine: 4, EndLine: 5},
		Category: review.CategoryBug, Severity: review.SeverityHigh, RuleID: "go-errors",
		Content: "Div divides by b without checking it.\n\nA zero b panics.", Suggestion: "if b == 0 {\n\treturn 0\n}\n"}
	p := Placement{Comment: c, FP: "3c1f0a9d8e7b6a5c4d3e", Kind: PlaceInline, Side: review.SideNew, Start: 4, End: 5, Suggest: true,
		Note: "anchored at line 4"}
	got, ok := FindingOf(CommentBody(p, Style{Flavor: FlavorGitHub}), "svc/calc.go", 4, 5)
	if !ok || got.Severity != c.Severity || got.Category != c.Category || got.Content != c.Content ||
		got.Path != c.Path || got.StartLine != 4 || got.EndLine != 5 {
		t.Errorf("FindingOf = %+v, %v; want %+v", got, ok, c)
	}
	if _, ok := FindingOf("thanks!\n\n<!-- ocr:fp=3c1f0a9d8e7b6a5c4d3e -->", "a.go", 1, 1); ok {
		t.Error("a body without a finding's header was read as one")
	}
}
