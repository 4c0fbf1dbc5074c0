package posting

import (
	"strings"
)

// Model text is untrusted: it may try to inject raw HTML (tracking images,
// fake <details> that hide our marker), forge ocr's hidden markers, ping
// people with @mentions or leave a code fence open so that everything ocr
// appends renders as code. postSafe keeps the Markdown the model
// legitimately uses (emphasis, lists, code) and neutralises the rest.

const zeroWidthSpace = "\u200b"

// postSafe returns model text that is safe to embed in a comment body.
// Outside code: "<" becomes "&lt;", "![" loses its image meaning and
// "@name" cannot mention. Inside code: "<!--" is broken up. Everywhere:
// control and bidi-override characters are dropped. An unclosed fence is
// closed.
func postSafe(s string) string {
	s = strings.Map(dropControl, strings.ReplaceAll(s, "\r\n", "\n"))
	lines := strings.Split(s, "\n")
	fence := ""
	for i, l := range lines {
		switch {
		case fence != "":
			if postFenceClose(l, fence) {
				fence = ""
			}
			lines[i] = postBreakComment(quickActionOff(l, " "))
		case postFenceOpen(l) != "":
			fence = postFenceOpen(l)
			lines[i] = postBreakComment(l)
		default:
			lines[i] = quickActionOff(postEscapeLine(l), `\`)
		}
	}
	out := strings.Join(lines, "\n")
	if fence != "" {
		out += "\n" + fence
	}
	return out
}

// isQuickAction reports a line GitLab would run as a quick action when
// ocr's account posts it: "/" at the very start of a line, then a command
// name (/approve, /merge, /close, /assign ...). GitLab skips some code
// blocks, but not every kind, so ocr does not rely on that.
// https://docs.gitlab.com/user/project/quick_actions/
func isQuickAction(l string) bool {
	return len(l) > 1 && l[0] == '/' && (l[1]|0x20 >= 'a' && l[1]|0x20 <= 'z')
}

// quickActionOff puts prefix before a quick-action line: a backslash in
// Markdown text (it renders as the same "/"), a space in code.
func quickActionOff(l, prefix string) string {
	if isQuickAction(l) {
		return prefix + l
	}
	return l
}

// hasQuickAction reports whether any line of s is a quick action.
func hasQuickAction(s string) bool {
	for _, l := range strings.Split(s, "\n") {
		if isQuickAction(l) {
			return true
		}
	}
	return false
}

// postFenceOpen returns the fence run ("```", "~~~~") opening a fenced block.
func postFenceOpen(l string) string {
	t := strings.TrimLeft(l, " ")
	if len(l)-len(t) > 3 || len(t) < 3 || (t[0] != '`' && t[0] != '~') {
		return ""
	}
	n := 0
	for n < len(t) && t[n] == t[0] {
		n++
	}
	if n < 3 || (t[0] == '`' && strings.ContainsRune(t[n:], '`')) {
		return ""
	}
	return t[:n]
}

func postFenceClose(l, fence string) bool {
	t := strings.TrimSpace(l)
	if len(t) < len(fence) || t[0] != fence[0] {
		return false
	}
	return strings.Trim(t, string(fence[0])) == ""
}

func postBreakComment(s string) string {
	return strings.ReplaceAll(s, "<!--", "<!-"+zeroWidthSpace+"-")
}

// postEscapeLine escapes one line outside fenced code, leaving code spans
// (`...`, “...“) as they are apart from postBreakComment.
func postEscapeLine(l string) string {
	var b strings.Builder
	for len(l) > 0 {
		i := strings.IndexByte(l, '`')
		if i < 0 {
			b.WriteString(postEscapeText(l))
			break
		}
		b.WriteString(postEscapeText(l[:i]))
		l = l[i:]
		n := 0
		for n < len(l) && l[n] == '`' {
			n++
		}
		end := postClosingRun(l[n:], n)
		if end < 0 {
			b.WriteString(l[:n])
			l = l[n:]
			continue
		}
		b.WriteString(postBreakComment(l[:n+end+n]))
		l = l[n+end+n:]
	}
	return b.String()
}

// postClosingRun finds a run of exactly n backticks in s.
func postClosingRun(s string, n int) int {
	for i := 0; i < len(s); {
		if s[i] != '`' {
			i++
			continue
		}
		j := i
		for j < len(s) && s[j] == '`' {
			j++
		}
		if j-i == n {
			return i
		}
		i = j
	}
	return -1
}

func postEscapeText(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '<':
			b.WriteString("&lt;")
		case c == '!' && i+1 < len(s) && s[i+1] == '[':
			b.WriteString(`!\`)
		case c == '@' && i+1 < len(s) && postWordByte(s[i+1]) && (i == 0 || !postWordByte(s[i-1])):
			b.WriteString("@" + zeroWidthSpace)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func postWordByte(c byte) bool {
	return c == '_' || c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

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

// dropControl removes control characters other than newline and tab, and
// the bidirectional overrides that can make code read differently from
// what it is ("Trojan Source").
func dropControl(r rune) rune {
	switch {
	case r == '\n' || r == '\t':
		return r
	case r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0:
		return -1
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e || r == 0x200f:
		return -1
	}
	return r
}
