// Package logtexttest tells, for tests, whether the GitHub Actions runner
// could take a line of ocr's output for a workflow command. It is written
// from the runner's parser, independently of logtext's escaper, so a test
// can check one against the other.
package logtexttest

import (
	"strings"
	"unicode"
)

// CommandLine returns the first line of out the runner could take for a
// workflow command, or "" when there is none.
func CommandLine(out string) string {
	for _, l := range strings.FieldsFunc(out, lineBreak) {
		if Command(l) {
			return l
		}
	}
	return ""
}

// Command reports whether the runner could take line for a workflow
// command. It follows ActionCommand.TryParseV2 and TryParse
// (https://github.com/actions/runner/blob/main/src/Runner.Common/ActionCommand.cs)
// and errs on the side of "yes": any command name counts (the runner only
// honours registered names, compared case-insensitively), and invisible
// characters are skipped as the runner's culture-sensitive StartsWith and
// IndexOf skip them.
func Command(line string) bool {
	visible := strings.Map(func(r rune) rune {
		if skipped(r) {
			return -1
		}
		return r
	}, line)
	// TryParseV2: message.TrimStart() starts with "::".
	if strings.HasPrefix(strings.TrimLeftFunc(visible, unicode.IsSpace), "::") {
		return true
	}
	// TryParse: message.IndexOf("##[") anywhere on the line.
	return strings.Contains(visible, "##[")
}

// lineBreak: the runner reads lines split at CR and LF; log viewers may
// also split at the Unicode line and paragraph separators and NEL.
func lineBreak(r rune) bool {
	return r == '\n' || r == '\r' || r == '\u2028' || r == '\u2029' || r == '\u0085'
}

// skipped reports whether an ICU culture-sensitive comparison may ignore r:
// controls, format characters, unassigned and private-use code points,
// combining marks.
func skipped(r rune) bool {
	return unicode.IsControl(r) || !unicode.IsGraphic(r) || unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf)
}
