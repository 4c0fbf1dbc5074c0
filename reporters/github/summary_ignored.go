package github

import (
	"github.com/ocr-ci/ocr/reporters"
	"github.com/ocr-ci/ocr/reporters/posting"
	"github.com/ocr-ci/ocr/review"
)

// ignoredNote is the step summary's line for the findings someone
// ignored ("1 finding ignored (by @alice: reason)"), escaped; "" when none.
func ignoredNote(cs []review.Comment) string {
	line := reporters.IgnoredLine(cs)
	if line == "" {
		return ""
	}
	return "\n" + posting.MdText(line) + ": not counted by `--fail-on`, not annotated; the SARIF and JSON reports mark them.\n"
}
