// Package logtext makes text ocr did not write (file names from a diff,
// model answers, API and provider messages) safe to print in a terminal
// or a CI log: it cannot start a line of its own — GitHub Actions runs any
// log line that begins with "::" as a workflow command — and control
// characters cannot clear, recolour or hide lines. The legacy form "##[",
// honoured anywhere on a line, is neutralised too (see Inert).
package logtext

import (
	"fmt"
	"strings"
)

// lineBreaks are the characters a log reader takes for a line break.
var lineBreaks = []string{"\r\n", "\n", "\r", "\u2028", "\u2029", "\u0085"}

// oneLine shows every line break escaped.
var oneLine = strings.NewReplacer("\r\n", `\r\n`, "\n", `\n`, "\r", `\r`,
	"\u2028", `\u2028`, "\u2029", `\u2029`, "\u0085", `\u0085`)

// OneLine returns s on one line: line breaks escaped (\n), other control
// characters shown as \xNN.
func OneLine(s string) string { return Inert(escapeControls(oneLine.Replace(s))) }

// Lines returns s with every line after the first starting with
// continuation, so each line of the output begins with text ocr wrote;
// other control characters are shown as \xNN; nothing in it is a workflow
// command (Inert).
func Lines(s, continuation string) string {
	var pairs []string
	for _, lb := range lineBreaks {
		pairs = append(pairs, lb, "\n"+continuation)
	}
	return Inert(escapeControls(strings.NewReplacer(pairs...).Replace(s)))
}

// escapeControls shows C0 and C1 control characters other than tab and
// line feed as \xNN.
func escapeControls(s string) string {
	if !strings.ContainsFunc(s, isControl) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if isControl(r) {
			fmt.Fprintf(&b, `\x%02x`, r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func isControl(r rune) bool {
	return r != '\t' && r != '\n' && (r < 0x20 || (r >= 0x7f && r < 0xa0))
}
