package posting

import (
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/review"
)

// evilPath is a file name a pull request can add: git allows newlines in
// names, and the diff parser unquotes them. In a code span, the blank line
// would end the paragraph and the rest would render as raw HTML.
const evilPath = "x\n\n<img src=\"https://evil.example/t.png\">\n\n[click](https://evil.example) `y`"

// noInjectedLine fails when a line of body begins with what evilPath
// smuggles in.
func noInjectedLine(t *testing.T, what, body string) {
	t.Helper()
	for _, l := range strings.Split(body, "\n") {
		if strings.HasPrefix(l, "<img") || strings.HasPrefix(l, "[click]") {
			t.Errorf("%s: path starts a line of its own: %q\nbody:\n%s", what, l, body)
		}
	}
	if !strings.Contains(body, `x\n\n<img`) {
		t.Errorf("%s: the path is not shown with its line breaks escaped:\n%s", what, body)
	}
}

func TestPostedPathsStayInTheirCodeSpan(t *testing.T) {
	c := review.Comment{Location: review.Location{Path: evilPath, Side: review.SideNew, StartLine: 3, EndLine: 3},
		Content: "Bug.", Category: review.CategoryBug, Severity: review.SeverityHigh, RuleID: "r\n\n<img src=x>"}
	noInjectedLine(t, "LocationText", "On "+LocationText(c)+":\n")
	if h := findingHeader(c); strings.Contains(h, "\n") {
		t.Errorf("findingHeader spans lines: %q", h)
	}
	r := &review.Review{Tool: "ocr", Status: review.StatusComplete, Head: strings.Repeat("a", 40),
		Files: []review.FileCoverage{{Path: evilPath, Reason: "too large"}}}
	body := StickySummary(StickyInput{Review: r, Resolved: []ResolvedItem{{Path: evilPath}},
		Placements: []Placement{{Comment: c, Kind: PlaceSummary}}})
	noInjectedLine(t, "StickySummary", body)
}
