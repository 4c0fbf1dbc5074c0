package posting

import (
	"strings"
)

// Model text is untrusted: it may try to inject raw HTML (tracking images,
// fake <details> that hide our marker), forge ocr's hidden markers, ping
// people with @mentions or leave a code fence open so that everything ocr
// appends renders as code. postSafe keeps the Markdown the model
// legitimately uses (emphasis, lists, code) and neutralises the rest.
//
// What is left unescaped as code must be code for a CommonMark renderer
// too, or the escaper's belief lets raw HTML and mentions through. So
// postSafe keeps only the code it can prove, and turns every other
// backtick into an entity, which no renderer takes for code:
//
//   - a fenced block only when its opening line starts at column 0: such a
//     line is never inside a list item or a block quote (a fence cannot
//     be a lazy continuation line), so the block ends only at its closing
//     fence, whose exact rule (at most 3 spaces, a run at least as long,
//     nothing else) postFenceClose follows. A fence inside a container
//     ("- ```", "> ```", "   ```" after a list item) is plain text;
//   - a code span only between two backtick runs of the same length on one
//     line, the opening one not escaped by a backslash (an odd run of
//     backslashes before it escapes its first backtick, and the rest of
//     the run may still open a span);
//   - runs of three or more "~" outside code are entities too, so they
//     cannot open a tilde fence anywhere.

const zeroWidthSpace = "\u200b"

// postSafe returns model text that is safe to embed in a comment body.
// Outside code: "<" becomes "&lt;", "&" becomes "&amp;" (no entity can
// spell "@" or "<"), "![" loses its image meaning, "@name" cannot mention,
// and backticks that do not delimit code kept as code become "&#96;".
// Inside code: "<!--" is broken up. Everywhere: control and bidi-override
// characters are dropped. An unclosed fence is closed. Outside code, no
// link syntax is kept and a URL to a host links does not allow is shown as
// code (see Links).
func postSafe(s string, links Links) string {
	s = strings.Map(dropControl, strings.ReplaceAll(s, "\r\n", "\n"))
	lines := strings.Split(s, "\n")
	fence := ""
	for i, l := range lines {
		switch {
		case fence != "":
			if postFenceClose(l, fence) {
				fence = ""
			}
			lines[i] = postBreakComment(quickActionOff(l, true))
		case postFenceOpen(l) != "":
			fence = postFenceOpen(l)
			lines[i] = postBreakComment(l)
		default:
			lines[i] = quickActionOff(postEscapeLine(l, links), false)
		}
	}
	out := strings.Join(lines, "\n")
	if fence != "" {
		out += "\n" + fence
	}
	return out
}

// postSafeInline is postSafe for a slot of one line (a list item, a
// block quote, <sub>): line breaks become spaces, and no fence is kept,
// since a fence there would live inside a container and end with it.
func postSafeInline(s string, links Links) string {
	s = strings.Map(dropControl, strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s))
	return quickActionOff(postEscapeLine(s, links), false)
}

// postSafeCut is postSafe cut to at most n bytes. The source is cut, not
// the escaped text: a cut inside a fence would leave it open, and the
// rest of the body (the hidden marker included) would render as code.
func postSafeCut(s string, n int, links Links) string {
	out := postSafe(s, links)
	for len(out) > n {
		keep := len(s) - (len(out) - n) - 32
		if keep < 64 {
			return "… (truncated)"
		}
		s = postCut(s, keep)
		out = postSafe(s, links)
	}
	return out
}

// isQuickAction reports a line GitLab would run as a quick action when
// ocr's account posts it, or ocr would read as its own command: "/" then a
// letter (/approve, /merge, /close, /ocr ...) once invisible characters
// (already dropped) and leading spaces and tabs are set aside. GitLab
// skips some code blocks, but not every kind, so ocr does not rely on that.
// https://docs.gitlab.com/user/project/quick_actions/
func isQuickAction(l string) bool {
	l = strings.TrimLeft(l, " \t")
	return len(l) > 1 && l[0] == '/' && (l[1]|0x20 >= 'a' && l[1]|0x20 <= 'z')
}

// codeSlash stands for a quick action's "/" in code, where no escape
// renders: U+2215 DIVISION SLASH reads the same and runs nothing.
const codeSlash = "\u2215"

// quickActionOff defuses a quick-action line: a backslash before its "/"
// in Markdown text (it renders as the same "/"), the "/" shown as
// codeSlash in code.
func quickActionOff(l string, code bool) string {
	if !isQuickAction(l) {
		return l
	}
	i := len(l) - len(strings.TrimLeft(l, " \t"))
	if code {
		return l[:i] + codeSlash + l[i+1:]
	}
	return l[:i] + `\` + l[i:]
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

// postFenceOpen returns the fence run ("```", "~~~~") opening a fenced
// block at column 0, the only fences postSafe keeps (see above).
func postFenceOpen(l string) string {
	if len(l) < 3 || (l[0] != '`' && l[0] != '~') {
		return ""
	}
	n := 0
	for n < len(l) && l[n] == l[0] {
		n++
	}
	if n < 3 || (l[0] == '`' && strings.ContainsRune(l[n:], '`')) {
		return ""
	}
	return l[:n]
}

// postFenceClose follows CommonMark: up to three spaces, a run of the
// fence's character at least as long, then only spaces and tabs.
// https://spec.commonmark.org/0.31.2/#fenced-code-blocks
func postFenceClose(l, fence string) bool {
	t := strings.TrimLeft(l, " ")
	if len(l)-len(t) > 3 {
		return false
	}
	n := 0
	for n < len(t) && t[n] == fence[0] {
		n++
	}
	return n >= len(fence) && strings.Trim(t[n:], " \t") == ""
}

func postBreakComment(s string) string {
	return strings.ReplaceAll(s, "<!--", "<!-"+zeroWidthSpace+"-")
}

// postEscapeLine escapes one line outside fenced code, leaving the code
// spans it can prove (see above) as they are apart from postBreakComment.
func postEscapeLine(l string, links Links) string {
	var b strings.Builder
	text := 0 // start of the text not yet written
	none := postNoCloser{}
	for i := 0; i < len(l); {
		if l[i] != '`' {
			i++
			continue
		}
		n := 0
		for i+n < len(l) && l[i+n] == '`' {
			n++
		}
		open := i
		if postEscaped(l[text:i]) {
			open++ // "\`" is a literal backtick; the rest of the run may open
		}
		if k := n - (open - i); k > 0 && open+k < none.at(k) {
			end := postClosingRun(l[open+k:], k)
			if end < 0 {
				// None from here means none from anywhere later: each
				// length is searched to the end at most once.
				none[k] = open + k
			} else {
				postEscapeText(&b, l[text:open], true, links)
				b.WriteString(postBreakComment(l[open : open+k+end+k]))
				i = open + k + end + k
				text = i
				continue
			}
		}
		i += n
	}
	postEscapeText(&b, l[text:], false, links)
	return b.String()
}

// postNoCloser maps a backtick run length to the position from which no
// run of that length follows; missing means not searched yet.
type postNoCloser map[int]int

func (m postNoCloser) at(k int) int {
	if v, ok := m[k]; ok {
		return v
	}
	return int(^uint(0) >> 1)
}

// postEscaped reports whether text ends with an odd run of backslashes,
// which escapes the character after it.
func postEscaped(text string) bool {
	n := 0
	for n < len(text) && text[len(text)-1-n] == '\\' {
		n++
	}
	return n%2 == 1
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

// postEscapeText writes text outside code to b, escaped. A backtick here
// delimits no code postSafe keeps: as an entity it cannot open a span
// elsewhere. A backtick escaped by a backslash stays, as the backslash
// makes it literal. "]" is escaped: no link, link definition or footnote
// can close. A URL to a host links does not allow becomes a code span
// (postLinkCode); code says whether a kept code span follows s.
func postEscapeText(b *strings.Builder, s string, code bool, links Links) {
	spans := links.linkSpans(s)
	for i := 0; i < len(s); i++ {
		if len(spans) > 0 && i == spans[0][0] {
			end := spans[0][1]
			postLinkCode(b, s[i:end], end == len(s) && code || end < len(s) && s[end] == '`')
			spans, i = spans[1:], end-1
			continue
		}
		c := s[i]
		switch {
		case c == '<':
			b.WriteString("&lt;")
		case c == '&':
			b.WriteString("&amp;")
		case c == '`' && !postEscaped(s[:i]):
			b.WriteString("&#96;")
		case c == ']' && !postEscaped(s[:i]):
			b.WriteString(`\]`)
		case c == '~' && (i == 0 || s[i-1] != '~'):
			n := postRun(s, i, '~')
			if n >= 3 {
				b.WriteString(strings.Repeat("&#126;", n))
			} else {
				b.WriteString(s[i : i+n])
			}
			i += n - 1
		case c == '!' && i+1 < len(s) && s[i+1] == '[':
			b.WriteString(`!\`)
		case c == '@' && !postAfterAlnum(b):
			// Whatever follows: "@*name*" or "@[name]()" would put the
			// name right after the "@" once rendered. What counts is the
			// character written before it: after a URL's code span, a
			// letter of the source is no longer there.
			b.WriteString("@" + zeroWidthSpace)
		default:
			b.WriteByte(c)
		}
	}
}

// postRun is the length of the run of c that s[i] belongs to.
func postRun(s string, i int, c byte) int {
	j, k := i, i
	for j > 0 && s[j-1] == c {
		j--
	}
	for k < len(s) && s[k] == c {
		k++
	}
	return k - j
}

// postAfterAlnum reports whether what b holds ends with a letter or digit.
func postAfterAlnum(b *strings.Builder) bool {
	s := b.String()
	return s != "" && postAlnum(s[len(s)-1])
}

// postAlnum reports an ASCII letter or digit: an "@" after one is an
// e-mail address, not a mention. After anything else ("_" and "*" delimit
// emphasis, and are gone once rendered) it could mention.
func postAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
