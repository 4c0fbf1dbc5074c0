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

// CommentBody renders one finding: header, escaped model text, suggestion,
// the reason it was moved (if any) and the hidden fingerprint marker.
func CommentBody(p Placement, fl Flavor) string {
	var b strings.Builder
	b.WriteString(findingHeader(p.Comment))
	b.WriteString("\n\n")
	b.WriteString(postSafeCut(strings.TrimSpace(p.Content), maxBody/2))
	b.WriteString("\n")
	if p.Suggestion != "" {
		b.WriteString("\n")
		b.WriteString(postCut(suggestionBlock(p, fl), maxBody/3))
	}
	if p.Note != "" {
		fmt.Fprintf(&b, "\n<sub>%s</sub>\n", postSafeInline(p.Note))
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

// suggestionBlock renders the suggestion: an applicable block when the
// range is the comment's own on the new side, otherwise plain code that
// says which lines it was meant for.
func suggestionBlock(p Placement, fl Flavor) string {
	code := strings.TrimSuffix(strings.ReplaceAll(p.Suggestion, "\r\n", "\n"), "\n")
	fence := Fence(code)
	if hasQuickAction(code) {
		// A line GitLab could run as a quick action: shown as an indented
		// code block, where no line starts with "/", and not applicable.
		return fmt.Sprintf("Suggested replacement for %s (not applicable: a line starts with \"/\"):\n\n%s\n",
			suggestionLines(p), indentCode(code))
	}
	if !p.Suggest {
		return fmt.Sprintf("Suggested replacement for %s:\n\n%s\n%s\n%s\n", suggestionLines(p), fence, code, fence)
	}
	info := "suggestion"
	if fl == FlavorGitLab {
		// Offsets are relative to the commented (last) line of the range.
		// https://docs.gitlab.com/user/project/merge_requests/reviews/suggestions/
		info = fmt.Sprintf("suggestion:-%d+0", p.End-p.Start)
	}
	if code == "" {
		return fmt.Sprintf("%s%s\n%s\n", fence, info, fence)
	}
	return fmt.Sprintf("%s%s\n%s\n%s\n", fence, info, code, fence)
}

// suggestionLines is "line 3" or "lines 3–5".
func suggestionLines(p Placement) string {
	if p.EndLine > p.StartLine {
		return fmt.Sprintf("lines %d–%d", p.StartLine, p.EndLine)
	}
	return fmt.Sprintf("line %d", p.StartLine)
}

// indentCode renders code as an indented code block (four spaces a line);
// a blank line stays blank.
func indentCode(code string) string {
	lines := strings.Split(code, "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = "    " + postBreakComment(l)
		}
	}
	return strings.Join(lines, "\n")
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
