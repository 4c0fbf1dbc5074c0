package posting

import (
	"fmt"
	"strings"
	"unicode"
)

// A suggestion is committed with one click, exactly as posted, so it is
// all or nothing. One too long for its body is not cut (a cut fence is
// left open: the click would commit half a line, and the rest of the body,
// hidden marker included, would render as code) but replaced by a note.
// One that holds characters that hide or reorder code ("Trojan Source":
// bidirectional overrides and isolates, zero-width characters, other
// controls) is never offered as a one-click suggestion: it is shown as
// plain code with those characters made visible, after a warning.

// SuggestionTooLong replaces a suggestion that does not fit.
const SuggestionTooLong = "_Suggestion too long to show; see the SARIF/JSON report._\n"

// suggestionBlock renders the suggestion in at most limit bytes, or says
// it is too long.
func suggestionBlock(p Placement, fl Flavor, limit int) string {
	if b := suggestionMarkdown(p, fl); len(b) <= limit {
		return b
	}
	return SuggestionTooLong
}

// suggestionMarkdown renders the suggestion: an applicable block when the
// range is the comment's own on the new side and the code hides nothing,
// otherwise plain code that says which lines it was meant for.
func suggestionMarkdown(p Placement, fl Flavor) string {
	code := strings.TrimSuffix(strings.ReplaceAll(p.Suggestion, "\r\n", "\n"), "\n")
	warn := ""
	if found := invisibles(code); len(found) > 0 {
		code, warn, p.Suggest = showInvisible(code), invisibleWarning(found), false
	}
	fence := Fence(code)
	switch {
	case hasQuickAction(code):
		// A line GitLab could run as a quick action: shown as an indented
		// code block, where no line starts with "/", and not applicable.
		return warn + fmt.Sprintf("Suggested replacement for %s (not applicable: a line starts with \"/\"):\n\n%s\n",
			suggestionLines(p), indentCode(code))
	case !p.Suggest:
		return warn + fmt.Sprintf("Suggested replacement for %s:\n\n%s\n%s\n%s\n", suggestionLines(p), fence, code, fence)
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

// invisible reports a character that code must not carry unseen into a
// commit: a control character other than tab and newline, a format
// character (bidirectional marks, embeddings, overrides and isolates,
// U+200B–U+200D, U+2060, U+FEFF, tag characters …) or a line or paragraph
// separator.
func invisible(r rune) bool {
	return r != '\t' && r != '\n' && (unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == 0x2028 || r == 0x2029)
}

// invisibles lists the distinct invisible characters of code, in order.
func invisibles(code string) []rune {
	var found []rune
	for _, r := range code {
		if invisible(r) && !strings.ContainsRune(string(found), r) {
			found = append(found, r)
		}
	}
	return found
}

// showInvisible writes each invisible character as <U+XXXX>.
func showInvisible(code string) string {
	var b strings.Builder
	for _, r := range code {
		if invisible(r) {
			fmt.Fprintf(&b, "<U+%04X>", r)
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// invisibleWarning says why the suggestion is not applicable.
func invisibleWarning(found []rune) string {
	names := make([]string, 0, len(found))
	for i, r := range found {
		if i == 5 {
			names = append(names, "…")
			break
		}
		names = append(names, fmt.Sprintf("U+%04X", r))
	}
	return fmt.Sprintf("**Warning:** this suggestion contains invisible or bidirectional control characters (%s), "+
		"shown below as `<U+…>`; it is not offered as a one-click suggestion.\n\n", strings.Join(names, ", "))
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
			lines[i] = "    " + postBreakComment(quickActionOff(l, true))
		}
	}
	return strings.Join(lines, "\n")
}
