package posting

import (
	"fmt"
	"strings"

	"github.com/ocr-ci/ocr/review"
)

// maxBody keeps every body under GitHub's 65,536-character limit with room
// for the marker (GitLab allows 1,000,000).
const maxBody = 60000

// Flavor is the platform's suggestion syntax.
type Flavor int

// The flavors: GitHub's suggestion blocks, and GitLab's.
const (
	FlavorGitHub Flavor = iota
	FlavorGitLab
)

// Style is how one platform shows bodies: its suggestion syntax, and the
// hosts whose links model text keeps (the zero value keeps none).
type Style struct {
	Flavor Flavor
	Links  Links
}

// CommentBody renders one finding: header, escaped model text, suggestion,
// the reason it was moved (if any) and the hidden fingerprint marker.
func CommentBody(p Placement, st Style) string {
	var b strings.Builder
	b.WriteString(findingHeader(p.Comment))
	b.WriteString("\n\n")
	b.WriteString(postSafeCut(strings.TrimSpace(p.Content), maxBody/2, st.Links))
	b.WriteString("\n")
	if p.Suggestion != "" {
		b.WriteString("\n")
		b.WriteString(suggestionBlock(p, st.Flavor, maxBody/3))
	}
	if p.Note != "" {
		fmt.Fprintf(&b, "\n<sub>%s</sub>\n", postSafeInline(p.Note, st.Links))
	}
	b.WriteString("\n")
	b.WriteString(fingerprintMarker(p.FP))
	return b.String()
}

// findingHeader is "**High** · bug" plus the rule when there is one.
func findingHeader(c review.Comment) string {
	h := fmt.Sprintf("**%s** · %s", postSeverity(c.Severity), c.Category)
	if c.RuleID != "" {
		h += " · " + postCode(c.RuleID)
	}
	return h
}

func postSeverity(s review.Severity) string {
	if s == "" {
		return "Note"
	}
	return strings.ToUpper(string(s[:1])) + string(s[1:])
}

// LocationText names where a finding belongs, for bodies that are not
// anchored to it.
func LocationText(c review.Comment) string {
	path := postCode(c.Path)
	switch {
	case c.FileLevel():
		return path
	case c.EndLine > c.StartLine:
		return fmt.Sprintf("%s lines %d–%d", path, c.StartLine, c.EndLine)
	default:
		return fmt.Sprintf("%s line %d", path, c.StartLine)
	}
}
