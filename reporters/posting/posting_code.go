package posting

import "strings"

// postCode renders an untrusted name (a path from the diff, a rule id) as
// an inline code span. Backticks would end the span and are dropped; a line
// break would end it too (a blank line ends the paragraph, and what follows
// renders as Markdown or raw HTML), so breaks are shown as \n and \r;
// other control characters are dropped.
func postCode(s string) string {
	var b strings.Builder
	b.WriteByte('`')
	for _, r := range s {
		switch {
		case r == '`':
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteByte(' ')
		case dropControl(r) >= 0:
			b.WriteRune(r)
		}
	}
	b.WriteByte('`')
	return b.String()
}

// Fence returns a backtick fence longer than any backtick run in code
// (at least three), so the code cannot close it.
func Fence(code string) string {
	return strings.Repeat("`", max(3, LongestRun(code, '`')+1))
}

// postCut cuts s to at most n bytes on a rune boundary, saying so.
func postCut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	const note = "\n\n… (truncated)"
	cut := n - len(note)
	for cut > 0 && !postRuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + note
}

func postRuneStart(b byte) bool { return b&0xC0 != 0x80 }

// dropControl removes the characters that hide or reorder text: control
// characters other than newline and tab, format characters (bidirectional
// marks, overrides and isolates, zero-width characters, word joiners, BOMs,
// tag characters, U+061C) and line and paragraph separators ("Trojan
// Source"; see invisible). Escaping drops them first, so that nothing
// after (trimming, the quick-action guard) is fooled by them.
func dropControl(r rune) rune {
	if invisible(r) {
		return -1
	}
	return r
}
