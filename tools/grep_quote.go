package tools

import (
	"strconv"
	"strings"
)

// parseQuotedGrepLine parses a `git grep -n` line whose path git wrote
// C-quoted ("dir/a\"b.go":3:text), as it does for names holding a quote,
// a backslash or a control character even with core.quotepath=false.
func parseQuotedGrepLine(l string) (Match, bool) {
	name, rest, ok := unquoteC(l)
	if !ok || !strings.HasPrefix(rest, ":") {
		return Match{}, false
	}
	num, text, ok := strings.Cut(rest[1:], ":")
	n, err := strconv.Atoi(num)
	if !ok || err != nil || n < 0 {
		return Match{}, false
	}
	return Match{Path: name, Line: n, Text: text}, true
}

// unquoteC decodes the C-style quoted name at the start of s, as git's
// quote_c_style writes it: \a \b \t \n \v \f \r \" \\ and three-digit
// octal escapes. It returns the name and the text after the closing quote.
func unquoteC(s string) (name, rest string, ok bool) {
	if !strings.HasPrefix(s, `"`) {
		return "", "", false
	}
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"':
			return b.String(), s[i+1:], true
		case c != '\\':
			b.WriteByte(c)
		case i+1 < len(s) && simpleEscape(s[i+1]) != 0:
			b.WriteByte(simpleEscape(s[i+1]))
			i++
		case i+3 < len(s) && isOctal3(s[i+1:i+4]):
			b.WriteByte((s[i+1]-'0')<<6 | (s[i+2]-'0')<<3 | (s[i+3] - '0'))
			i += 3
		default:
			return "", "", false
		}
	}
	return "", "", false
}

// simpleEscape decodes a one-letter escape; 0 means c is not one.
func simpleEscape(c byte) byte {
	if i := strings.IndexByte(`abtnvfr"\`, c); i >= 0 {
		return "\a\b\t\n\v\f\r\"\\"[i]
	}
	return 0
}

// isOctal3 reports whether s is three octal digits of one byte's value.
func isOctal3(s string) bool {
	return s[0] >= '0' && s[0] <= '3' &&
		s[1] >= '0' && s[1] <= '7' && s[2] >= '0' && s[2] <= '7'
}
