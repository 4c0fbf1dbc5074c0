package logtext

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Inert returns s with nothing the GitHub Actions runner could take for a
// workflow command, by the runner's own parsing rules
// (https://github.com/actions/runner/blob/main/src/Runner.Common/ActionCommand.cs):
//
//   - the legacy form "##[name ...]data" is honoured anywhere on a line, so
//     the "[" of every "##[" is written "\u005b";
//   - the form "::name::data" is honoured at the start of a line after
//     leading white space, so such a line's first ":" is written "\u003a".
//
// The runner compares with the current culture, which skips invisible
// characters (zero-width spaces, joiners, controls, combining marks), so
// "#\u200b#[" counts as "##[" too: Inert skips the same characters.
//
// Both escapes are valid inside a JSON string and decode to the original
// character, so Inert may be applied to JSON text: the data is unchanged.
func Inert(s string) string { return inert(s, true) }

// Inline is Inert for text that ocr places after the start of a line of
// its own (the message of a workflow command it writes, where line breaks
// are escaped): only "##[" is broken; "::" is left alone.
func Inline(s string) string { return inert(s, false) }

func inert(s string, lines bool) string {
	if !mayCommand(s) {
		return s
	}
	// Only the bytes that change are written one by one; the runs between
	// them are copied whole (copying rune by rune was ~40% of the time on a
	// JSON report of megabytes, such as a SARIF log of 25,000 results).
	var b strings.Builder
	done := 0             // s[:done] is in b
	var prev1, prev2 rune // the last two visible runes
	lineStart := true
	for i, r := range s {
		var esc string
		switch {
		case isLineBreak(r):
			lineStart = true
		case invisible(r) || (lineStart && unicode.IsSpace(r)):
		case r == '[' && prev1 == '#' && prev2 == '#':
			esc = `\u005b`
			prev2, prev1, lineStart = '5', 'b', false
		case r == ':' && lines && lineStart && nextVisible(s[i+1:]) == ':':
			esc = `\u003a`
			prev2, prev1, lineStart = '3', 'a', false
		default:
			esc = invalidByte(s[i:], r)
			prev2, prev1, lineStart = prev1, r, false
		}
		if esc == "" {
			continue
		}
		b.Grow(len(s) - done + len(esc))
		b.WriteString(s[done:i])
		b.WriteString(esc)
		done = i + 1 // what esc replaces is one byte
	}
	if done == 0 {
		return s
	}
	b.WriteString(s[done:])
	return b.String()
}

// invalidByte is U+FFFD when s starts with a byte that is not UTF-8 (r is
// then utf8.RuneError): text leaves Inert valid UTF-8. It is "" otherwise.
func invalidByte(s string, r rune) string {
	if r != utf8.RuneError {
		return ""
	}
	if _, n := utf8.DecodeRuneInString(s); n != 1 {
		return ""
	}
	return string(utf8.RuneError)
}

// mayCommand is a fast check: without "[" after a "#", or a ":", there is
// nothing to escape.
func mayCommand(s string) bool {
	return strings.ContainsRune(s, ':') || (strings.ContainsRune(s, '#') && strings.ContainsRune(s, '['))
}

// nextVisible returns the first visible rune of s, or 0.
func nextVisible(s string) rune {
	for _, r := range s {
		if !invisible(r) {
			return r
		}
	}
	return 0
}

// isLineBreak reports whether r ends a line for the runner (which reads
// lines split at CR and LF) or for a log viewer.
func isLineBreak(r rune) bool {
	return r == '\n' || r == '\r' || r == '\u2028' || r == '\u2029' || r == '\u0085'
}

// invisible reports whether a culture-sensitive comparison may skip r:
// controls, format characters (zero-width space, joiners, bidi marks),
// unassigned and private-use code points, and combining marks.
func invisible(r rune) bool {
	if r < 0x7f {
		return r < 0x20
	}
	return !unicode.IsGraphic(r) || unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf)
}
