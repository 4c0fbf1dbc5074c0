package runner

import "strings"

// lineSafe keeps text ocr did not write (paths from the diff, API and
// provider messages) from starting a line of its own: GitHub Actions runs
// any log line that begins with "::" as a workflow command. Every
// continuation line starts with ocr's own prefix.
var lineSafe = strings.NewReplacer("\r\n", "\nocr:   ", "\r", `\r`, "\n", "\nocr:   ",
	"\u2028", `\u2028`, "\u2029", `\u2029`, "\u0085", `\u0085`)

// safeLines formats a message for stderr with every line prefixed by ocr.
func safeLines(s string) string { return lineSafe.Replace(s) }
