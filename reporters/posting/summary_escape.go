package posting

import (
	"strings"
	"unicode"

	"github.com/ocr-ci/ocr/reporters"
)

// Model text and repository paths are untrusted: in Markdown they could
// inject HTML, links, images, @mentions or break tables. MdText renders any
// such string as literal text for GitHub/GitLab-flavoured Markdown.

// MdText escapes s for inline Markdown: HTML-significant characters become
// entities, ASCII punctuation is backslash-escaped (no emphasis, links,
// images, autolinks — GFM's autolinker sees "www\.x" and "https\:" broken
// into separate text nodes), @ and # are followed by a word joiner (U+2060)
// so no one is mentioned and no issue is cross-referenced, control
// characters are dropped, and newlines become spaces.
func MdText(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\n' || r == '\r' || r == '\t':
			b.WriteByte(' ')
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '&':
			b.WriteString("&amp;")
		case r == '@':
			b.WriteString("@\u2060")
		case r == '#':
			b.WriteString("\\#\u2060")
		case r < 0x80 && unicode.IsPunct(r) || r < 0x80 && unicode.IsSymbol(r):
			b.WriteByte('\\')
			b.WriteRune(r)
		case reporters.IsUnsafeControl(r):
			// dropped: terminal escapes, bidi overrides, zero-width tricks
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// MdParagraphs renders multi-line text: each line escaped, lines joined with
// hard breaks, blank lines kept as paragraph breaks.
func MdParagraphs(s string) string {
	lines := strings.Split(strings.ReplaceAll(strings.TrimSpace(s), "\r\n", "\n"), "\n")
	var b strings.Builder
	for i, line := range lines {
		line = strings.TrimSpace(line)
		if i > 0 {
			if line == "" || strings.TrimSpace(lines[i-1]) == "" {
				b.WriteString("\n")
			} else {
				b.WriteString("<br>\n")
			}
		}
		b.WriteString(MdText(line))
	}
	return b.String()
}

// MdCodeBlock fences code with a backtick fence longer than any backtick run
// inside it, so the code cannot close the block; nothing inside is rendered.
func MdCodeBlock(code, info string) string {
	fence := Fence(code)
	code = strings.TrimRight(code, "\n")
	return fence + info + "\n" + stripUnsafe(code) + "\n" + fence + "\n"
}

// stripUnsafe drops control characters other than newline and tab.
func stripUnsafe(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' || !reporters.IsUnsafeControl(r) {
			return r
		}
		return -1
	}, s)
}

// LongestRun is the length of the longest run of c in s.
func LongestRun(s string, c rune) int {
	best, cur := 0, 0
	for _, r := range s {
		if r == c {
			cur++
			best = max(best, cur)
		} else {
			cur = 0
		}
	}
	return best
}

// FirstLine is the first non-empty line of s, cut to n runes.
func FirstLine(s string, n int) string {
	for _, line := range strings.Split(s, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			return TruncateRunes(line, n)
		}
	}
	return ""
}

// TruncateRunes cuts s to at most n runes, marking the cut.
func TruncateRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
