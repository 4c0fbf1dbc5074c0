package tools

import (
	"bytes"
	"strconv"
	"strings"
)

// parseGrep parses `git grep -n` output, with or without -z, into matches.
// prefix ("REF:" when searching a commit) is removed from every path.
// Lines that are not matches ("Binary file … matches") are skipped.
// Without -z a path may itself contain ":<digits>:"; known (the listed
// files, may be nil) picks the split that names a real file.
func parseGrep(out []byte, prefix string, known map[string]bool) []Match {
	var ms []Match
	for len(out) > 0 {
		line := out
		if i := bytes.IndexByte(out, '\n'); i >= 0 {
			line, out = out[:i], out[i+1:]
		} else {
			out = nil
		}
		if m, ok := parseGrepLine(string(line), prefix, known); ok {
			ms = append(ms, m)
		}
	}
	return ms
}

// parseGrepLine parses "path\x00n\x00text" or "path:n:text".
func parseGrepLine(l, prefix string, known map[string]bool) (Match, bool) {
	l = strings.TrimPrefix(l, prefix)
	if i := strings.IndexByte(l, 0); i >= 0 {
		rest := l[i+1:]
		j := strings.IndexAny(rest, "\x00:")
		if j < 0 {
			return Match{}, false
		}
		n, err := strconv.Atoi(rest[:j])
		return Match{Path: l[:i], Line: n, Text: rest[j+1:]}, err == nil
	}
	// git C-quotes a name holding a quote, a backslash or a control
	// character; such a name is never written bare.
	if m, ok := parseQuotedGrepLine(l); ok {
		return m, true
	}
	return splitGrepLine(l, known)
}

// splitGrepLine parses "path:n:text" written without -z, where the path
// ends at a ":<digits>:": the first one naming a known file, else the
// first one.
func splitGrepLine(l string, known map[string]bool) (Match, bool) {
	var first Match
	found := false
	for i := 0; i < len(l); i++ {
		if l[i] != ':' {
			continue
		}
		j := i + 1
		for j < len(l) && l[j] >= '0' && l[j] <= '9' {
			j++
		}
		if j > i+1 && j < len(l) && l[j] == ':' {
			n, _ := strconv.Atoi(l[i+1 : j])
			m := Match{Path: l[:i], Line: n, Text: l[j+1:]}
			if known == nil || known[m.Path] {
				return m, true
			}
			if !found {
				first, found = m, true
			}
		}
	}
	return first, found
}
