package udiff

import "strings"

// unquoteC decodes the C-style quoted name at the start of s, as git's
// quote_c_style writes it (core.quotepath): \a \b \t \n \v \f \r \" \\ and
// three-digit octal escapes for other bytes. It returns the name and the
// text after the closing quote. A name without escapes is a slice of s.
func unquoteC(s string) (name, rest string, ok bool) {
	end, escaped := closingQuote(s)
	if end < 0 {
		return "", "", false
	}
	if !escaped {
		return s[1:end], s[end+1:], true
	}
	var b strings.Builder
	b.Grow(end)
	for i := 1; i < end; i++ {
		c := s[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		i++
		if c, ok = simpleEscape(s[i]); ok {
			b.WriteByte(c)
			continue
		}
		if i+2 >= end || !isOctal(s[i]) || !isOctal(s[i+1]) || !isOctal(s[i+2]) || s[i] > '3' {
			return "", "", false
		}
		b.WriteByte((s[i]-'0')<<6 | (s[i+1]-'0')<<3 | (s[i+2] - '0'))
		i += 2
	}
	return b.String(), s[end+1:], true
}

// closingQuote finds the quote that ends the name opened at s[0], and
// whether the name holds escapes. It returns -1 when there is none.
func closingQuote(s string) (int, bool) {
	escaped := false
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '"':
			return i, escaped
		case '\\':
			escaped = true
			i++
		}
	}
	return -1, escaped
}

// simpleEscape decodes a one-letter escape.
func simpleEscape(c byte) (byte, bool) {
	switch c {
	case 'a':
		return '\a', true
	case 'b':
		return '\b', true
	case 't':
		return '\t', true
	case 'n':
		return '\n', true
	case 'v':
		return '\v', true
	case 'f':
		return '\f', true
	case 'r':
		return '\r', true
	case '"', '\\':
		return c, true
	}
	return 0, false
}

// isOctal reports whether c is an octal digit.
func isOctal(c byte) bool { return c >= '0' && c <= '7' }
