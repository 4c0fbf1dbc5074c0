package posting

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/ocr-ci/ocr/review"
)

// belowFloorSection lists, folded, the findings below the posting floor:
// one line each (severity, category, location, the message's first line),
// the SARIF and JSON reports hold the rest.
func belowFloorSection(ps []Placement, links Links) section {
	return foldedSection(placementsOf(ps, PlaceBelowFloor), "Below the posting floor", links)
}

// overBudgetSection lists, folded like those below the floor, the findings
// over the inline budget of the push: they are more severe than those, and
// without it the summary would only count them.
func overBudgetSection(ps []Placement, links Links) section {
	return foldedSection(placementsOf(ps, PlaceOverBudget), "Over the inline budget of this push, not posted inline", links)
}

// foldedSection is a <details> section titled title of one line per
// placement.
func foldedSection(ps []Placement, title string, links Links) section {
	if len(ps) == 0 {
		return section{}
	}
	sec := section{head: fmt.Sprintf("\n<details><summary>%s (%d): %s</summary>\n\n",
		title, len(ps), floorCounts(ps)), foot: "\n</details>\n"}
	for _, p := range ps {
		sec.items = append(sec.items, fmt.Sprintf("- %s · %s · %s — %s\n", postSeverity(p.Severity),
			postSafeInline(string(p.Category), links), LocationText(p.Comment),
			postSafeInline(FirstLine(p.Content, 160), links)))
	}
	return sec
}

// floorCounts is "2 low" or "1 medium, 3 low": plain text, for <summary>.
func floorCounts(ps []Placement) string {
	n := map[review.Severity]int{}
	for _, p := range ps {
		n[p.Severity]++
	}
	var parts []string
	for _, s := range []review.Severity{review.SeverityCritical, review.SeverityHigh, review.SeverityMedium, review.SeverityLow, ""} {
		if n[s] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n[s], cmp.Or(string(s), "unknown")))
		}
	}
	return strings.Join(parts, ", ")
}
