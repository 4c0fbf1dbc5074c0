package anchor

import "strings"

import "github.com/ocr-ci/ocr/anchor/udiff"

// normalize trims s, drops a trailing CR and collapses every run of spaces
// and tabs inside it to one space, so indentation, trailing whitespace,
// CRLF and tabs-versus-spaces never decide a match. It allocates only when
// the line has inner runs to collapse.
func normalize(s string) string {
	s = strings.TrimSpace(s)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if isSpace(c) && (c != ' ' || (i+1 < len(s) && isSpace(s[i+1]))) {
			return collapse(s)
		}
	}
	return s
}

func collapse(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for i := 0; i < len(s); i++ {
		if isSpace(s[i]) {
			space = true
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'
}

// stripMarker removes one leading diff marker from a normalised line and
// reports which it was; 0 when the line has none.
func stripMarker(s string) (string, udiff.LineKind) {
	if s == "" || (s[0] != '+' && s[0] != '-') {
		return s, 0
	}
	return normalize(s[1:]), udiff.LineKind(s[0])
}

// stripReadPrefix removes a file_read line-number prefix ("123|code") and
// returns the number; ok is false when the line has none.
func stripReadPrefix(s string) (rest string, n int, ok bool) {
	t := strings.TrimLeft(s, " \t")
	i := 0
	for i < len(t) && i < 9 && t[i] >= '0' && t[i] <= '9' {
		n = n*10 + int(t[i]-'0')
		i++
	}
	if i == 0 || i >= len(t) || t[i] != '|' {
		return s, 0, false
	}
	return t[i+1:], n, true
}

// isEllipsis reports whether a normalised line only says "code skipped
// here": "...", "…", "// ...", "# ...", "/* ... */", "<!-- ... -->".
func isEllipsis(s string) bool {
	for _, p := range [...]string{"//", "#", "/*", "<!--", "--", ";"} {
		s = strings.TrimSpace(strings.TrimPrefix(s, p))
	}
	for _, p := range [...]string{"*/", "-->"} {
		s = strings.TrimSpace(strings.TrimSuffix(s, p))
	}
	s = strings.TrimSuffix(strings.TrimPrefix(s, "["), "]")
	switch s {
	case "...", "…", "....", ". . .":
		return true
	}
	return false
}
