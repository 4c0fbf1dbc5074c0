package posting

import (
	"strings"

	"github.com/ocr-ci/ocr/review"
)

// FindingOf reads back the finding of one of ocr's comments (CommentBody):
// its severity and category from the header line, its text from the lines
// up to the suggestion, the note or the marker; path and lines are the
// comment's. The quote is not in the body: ExistingCode stays empty. ok
// is false for a body that does not start with a finding's header.
func FindingOf(body, path string, start, end int) (c review.Comment, ok bool) {
	head, rest, _ := strings.Cut(body, "\n")
	parts := strings.Split(strings.Trim(head, " "), " · ")
	if len(parts) < 2 || !strings.HasPrefix(parts[0], "**") || !strings.HasSuffix(parts[0], "**") {
		return review.Comment{}, false
	}
	c.Severity = review.ParseSeverity(strings.Trim(parts[0], "*"))
	c.Category = review.ParseCategory(parts[1])
	c.Path, c.StartLine, c.EndLine = path, min(start, end), max(start, end)
	if c.StartLine == 0 {
		c.StartLine = c.EndLine
	}
	var text []string
	for _, l := range strings.Split(rest, "\n") {
		if strings.HasPrefix(l, "```") || strings.HasPrefix(l, "~~~") || strings.HasPrefix(l, "<sub>") || strings.HasPrefix(l, markerPrefix) {
			break
		}
		text = append(text, l)
	}
	c.Content = strings.TrimSpace(strings.Join(text, "\n"))
	return c, true
}
