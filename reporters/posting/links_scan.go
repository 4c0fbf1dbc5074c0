package posting

import "strings"

// linkStart finds, from pos on, the first place where a renderer could
// start a link by itself, and where its fixed part ends: a scheme and
// "://", "www." and anything but a stop after it (GFM wants a domain,
// goldmark does not), or an e-mail address (email is then set, and end is
// where its domain ends). The punctuation of each may be escaped by
// backslashes: a renderer that links after unescaping would see through
// them. It finds more than GFM links, never less. start is -1 when there
// is none.
func linkStart(s string, pos int) (start, end int, email bool) {
	for i := pos; i < len(s); i++ {
		j := strings.IndexAny(s[i:], ":@wW")
		if j < 0 {
			break
		}
		i += j
		switch s[i] {
		case ':':
			if k, e := schemeAt(s, pos, i); k >= 0 {
				return k, e, false
			}
		case '@':
			if k, e := emailAt(s, pos, i); k >= 0 {
				return k, e, true
			}
		default:
			if e := wwwAt(s, i); e > 0 {
				return i, e, false
			}
		}
	}
	return -1, -1, false
}

// schemeAt reads a scheme ending at the ":" at i (a letter, then letters,
// digits, "+", "." or "-", not before pos) followed by "//": its start and
// the end of the "//".
func schemeAt(s string, pos, i int) (start, end int) {
	end = i + 1
	for n := 0; n < 2; n++ {
		if end < len(s) && s[end] == '\\' {
			end++
		}
		if end >= len(s) || s[end] != '/' {
			return -1, -1
		}
		end++
	}
	k := i
	if k > pos && s[k-1] == '\\' {
		k--
	}
	for k > pos && schemeByte(s[k-1]) {
		k--
	}
	for k < i && !asciiLetter(s[k]) {
		k++
	}
	if k == i || s[k] == '\\' {
		return -1, -1
	}
	return k, end
}

// emailAt reads an e-mail address around the "@" at i: a local part of
// letters, digits, ".", "_", "+" and "-" (not before pos), then a domain
// with at least one dot (which may be escaped).
func emailAt(s string, pos, i int) (start, end int) {
	k := i
	for k > pos && (postAlnum(s[k-1]) || strings.IndexByte("._+-", s[k-1]) >= 0) {
		k--
	}
	end, labels := i+1, 0
	for {
		n := end
		for n < len(s) && labelByte(s[n]) {
			n++
		}
		if n == end {
			break
		}
		end, labels = n, labels+1
		dot := end
		if dot < len(s) && s[dot] == '\\' {
			dot++
		}
		if dot+1 >= len(s) || s[dot] != '.' || !labelByte(s[dot+1]) {
			break
		}
		end = dot + 1
	}
	if k == i || labels < 2 {
		return -1, -1
	}
	return k, end
}

// wwwAt reads "www." (any case, the dot maybe escaped) at i followed by
// a character other than ASCII white space, "<", ">", "|" or a backtick;
// it returns where the dot ends, or 0.
func wwwAt(s string, i int) int {
	if len(s) < i+4 || !strings.EqualFold(s[i:i+3], "www") {
		return 0
	}
	e := i + 3
	if s[e] == '\\' {
		e++
	}
	if e+1 >= len(s) || s[e] != '.' || strings.IndexByte(" \t\n\v\f\r<>|`", s[e+1]) >= 0 {
		return 0
	}
	return e + 1
}

// labelByte is a character of a domain label in an e-mail address.
func labelByte(c byte) bool { return postAlnum(c) || c == '_' || c == '-' }

func schemeByte(c byte) bool { return postAlnum(c) || c == '+' || c == '.' || c == '-' }

func asciiLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
