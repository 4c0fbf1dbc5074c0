package udiff

import "strings"

// devNull names the missing side of an added or deleted file.
const devNull = "/dev/null"

// splitNames splits "a/X<sep>b/Y" (the rest of a "diff --git" line with sep
// " ", or of a "Binary files" line with sep " and ") into X and Y, either of
// which may be C-quoted. /dev/null becomes "". Unquoted names can contain
// sep themselves; then the symmetric split (X == Y, every unrenamed file) or
// the only valid split wins, and ok is false when that does not decide it.
func splitNames(s, sep string) (a, b string, ok bool) {
	if strings.HasPrefix(s, `"`) {
		a, rest, ok := unquoteC(s)
		if !ok || !strings.HasPrefix(rest, sep) {
			return "", "", false
		}
		return splitPair(a, rest[len(sep):])
	}
	// An unquoted name never contains '"' (git quotes it), so a quote
	// starts the second name.
	if q := strings.IndexByte(s, '"'); q >= 0 {
		if q < len(sep) || s[q-len(sep):q] != sep {
			return "", "", false
		}
		return splitPair(s[:q-len(sep)], s[q:])
	}
	return splitUnquoted(s, sep)
}

// splitPair strips the prefixes of a decoded old name and a raw new name.
func splitPair(rawA, rawB string) (a, b string, ok bool) {
	b, ok = pathValue(rawB)
	if !ok {
		return "", "", false
	}
	a, okA := stripPrefix(rawA, "a/")
	b, okB := stripPrefix(b, "b/")
	return a, b, okA && okB
}

// splitUnquoted tries every occurrence of sep in s.
func splitUnquoted(s, sep string) (a, b string, ok bool) {
	found := 0
	for i := 0; ; {
		j := strings.Index(s[i:], sep)
		if j < 0 {
			break
		}
		i += j
		x, okA := stripPrefix(s[:i], "a/")
		y, okB := stripPrefix(s[i+len(sep):], "b/")
		if okA && okB {
			if x == y {
				return x, y, true
			}
			a, b = x, y
			found++
		}
		i += len(sep)
	}
	return a, b, found == 1
}

// stripPrefix removes "a/" or "b/" from a name; /dev/null becomes "".
func stripPrefix(name, prefix string) (string, bool) {
	if name == devNull {
		return "", true
	}
	if len(name) <= len(prefix) || !strings.HasPrefix(name, prefix) {
		return "", false
	}
	return name[len(prefix):], true
}

// sideName reads the name of a "---" or "+++" line: quoted, or raw up to a
// tab (git appends one when the name contains a space). null reports
// /dev/null.
func sideName(s, prefix string) (name string, null, ok bool) {
	if strings.HasPrefix(s, `"`) {
		s, _, ok = unquoteC(s)
		if !ok {
			return "", false, false
		}
	} else if i := strings.IndexByte(s, '\t'); i >= 0 {
		s = s[:i]
	}
	name, ok = stripPrefix(s, prefix)
	return name, ok && s == devNull, ok
}

// pathValue reads a whole value that is a path, quoted or not (the value of
// "rename from", or the second name of a "diff --git" line).
func pathValue(s string) (string, bool) {
	if !strings.HasPrefix(s, `"`) {
		return s, s != ""
	}
	name, rest, ok := unquoteC(s)
	return name, ok && rest == ""
}

// binaryNames returns the "a/X and b/Y" part of "Binary files a/X and b/Y differ".
func binaryNames(line string) string {
	return strings.TrimSuffix(strings.TrimPrefix(line, "Binary files "), " differ")
}
