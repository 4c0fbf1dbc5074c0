package runner

import (
	"fmt"
	"strings"
)

// lineSafe keeps text ocr did not write (paths from the diff, API and
// provider messages) from starting a line of its own: GitHub Actions runs
// any log line that begins with "::" as a workflow command. Every
// continuation line starts with ocr's own prefix.
var lineSafe = strings.NewReplacer("\r\n", "\nocr:   ", "\r", `\r`, "\n", "\nocr:   ",
	"\u2028", `\u2028`, "\u2029", `\u2029`, "\u0085", `\u0085`)

// safeLines formats a message for stderr with every line prefixed by ocr
// and other control characters shown as \xNN: an escape sequence in a
// path could otherwise clear, recolour or hide lines of a terminal or log.
func safeLines(s string) string {
	s = lineSafe.Replace(s)
	if !strings.ContainsFunc(s, isLogControl) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if isLogControl(r) {
			fmt.Fprintf(&b, `\x%02x`, r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// isLogControl reports a C0 or C1 control character other than the tab
// and the line feeds lineSafe has already made safe.
func isLogControl(r rune) bool {
	return r != '\t' && r != '\n' && (r < 0x20 || (r >= 0x7f && r < 0xa0))
}
