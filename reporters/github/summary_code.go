package github

import (
	"strings"

	"github.com/ocr-ci/ocr/reporters"
	"github.com/ocr-ci/ocr/reporters/posting"
)

// mdInline escapes one line of model text like posting.MdText, but lets
// its code spans through as code: a backtick run closed by a run of the
// same length on the same line. A span is rewritten with a delimiter
// longer than any backtick run inside it, so nothing in it can close it
// early; inside a code span nothing is HTML, a link or a mention. inCell
// escapes pipes, which split a table cell even inside a span.
func mdInline(line string, inCell bool) string {
	var b strings.Builder
	for line != "" {
		start := strings.IndexByte(line, '`')
		if start < 0 {
			break
		}
		n := runLen(line[start:])
		end := closingRun(line[start+n:], n)
		if end < 0 || strings.TrimSpace(line[start+n:start+n+end]) == "" {
			b.WriteString(posting.MdText(line[:start+n]))
			line = line[start+n:]
			continue
		}
		b.WriteString(posting.MdText(line[:start]))
		b.WriteString(codeSpan(line[start+n:start+n+end], inCell))
		line = line[start+n+end+n:]
	}
	return b.String() + posting.MdText(line)
}

// runLen is the length of the backtick run that starts s.
func runLen(s string) int {
	return len(s) - len(strings.TrimLeft(s, "`"))
}

// closingRun is the offset in s of the first backtick run of exactly n,
// or -1.
func closingRun(s string, n int) int {
	for i := 0; i < len(s); {
		if s[i] != '`' {
			i++
			continue
		}
		m := runLen(s[i:])
		if m == n {
			return i
		}
		i += m
	}
	return -1
}

// codeSpan wraps code in a backtick run longer than any inside it, padded
// with a space on each side when it starts or ends with a backtick or a
// space (a renderer strips one such pad from each side).
func codeSpan(code string, inCell bool) string {
	code = strings.Map(func(r rune) rune {
		if r == '\t' || r == '\r' || r == '\n' {
			return ' '
		}
		if reporters.IsUnsafeControl(r) {
			return -1
		}
		return r
	}, code)
	if len(code) > 2 && code[0] == ' ' && code[len(code)-1] == ' ' {
		code = code[1 : len(code)-1] // as a renderer reads the model's span
	}
	if inCell {
		code = strings.ReplaceAll(code, "|", `\|`)
	}
	delim := strings.Repeat("`", posting.LongestRun(code, '`')+1)
	if strings.HasPrefix(code, "`") || strings.HasSuffix(code, "`") ||
		strings.HasPrefix(code, " ") && strings.HasSuffix(code, " ") {
		code = " " + code + " "
	}
	return delim + code + delim
}

// mdCodeParagraphs is posting.MdParagraphs with code spans let through.
func mdCodeParagraphs(s string) string {
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
		b.WriteString(mdInline(line, false))
	}
	return b.String()
}
