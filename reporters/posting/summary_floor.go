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
	below := placementsOf(ps, PlaceBelowFloor)
	if len(below) == 0 {
		return section{}
	}
	sec := section{head: fmt.Sprintf("\n<details><summary>Below the posting floor (%d): %s</summary>\n\n",
		len(below), floorCounts(below)), foot: "\n</details>\n"}
	for _, p := range below {
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
