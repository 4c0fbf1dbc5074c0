package posting

import (
	"github.com/ocr-ci/ocr/reporters"
	"github.com/ocr-ci/ocr/review"
)

// ignoredNote is the sticky summary's line for the findings someone
// ignored ("1 finding ignored (by @alice: reason)"), escaped like any
// people's text (no mention, link or quick action); "" when none.
func ignoredNote(cs []review.Comment) string {
	line := reporters.IgnoredLine(cs)
	if line == "" {
		return ""
	}
	return "\n" + postSafeInline(line, Links{}) + ": not posted, not counted by `--fail-on`.\n"
}
