package reporters

import (
	"fmt"
	"strings"

	"github.com/ocr-ci/ocr/review"
)

// maxIgnoredReasons bounds the distinct suppressions IgnoredLine names.
const maxIgnoredReasons = 5

// IgnoredLine is the summaries' line for the suppressed findings of cs,
// e.g. "1 finding ignored (by @alice: callers validate b)"; "" when none
// is. It is plain text holding people's words: escape it where it goes.
func IgnoredLine(cs []review.Comment) string {
	var whys []string
	seen := map[string]bool{}
	n := 0
	for _, c := range cs {
		if c.Suppressed == nil {
			continue
		}
		n++
		if w := c.Suppressed.String(); !seen[w] {
			seen[w] = true
			whys = append(whys, w)
		}
	}
	if n == 0 {
		return ""
	}
	if len(whys) > maxIgnoredReasons {
		whys = append(whys[:maxIgnoredReasons], "…")
	}
	noun := "findings"
	if n == 1 {
		noun = "finding"
	}
	return fmt.Sprintf("%d %s ignored (%s)", n, noun, strings.Join(whys, "; "))
}
