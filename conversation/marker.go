package conversation

import (
	"regexp"
	"strings"
)

// ocr's answers end with a hidden marker line, like its findings
// (reporters/posting): answerMarker on every answer, ignoredMarker on the
// reply to "ignore", which is how later runs learn the finding is ignored.
// A marker counts only in a comment by ocr's account (Forge.Own): anyone
// can type one.
const (
	markerPrefix = "<!-- ocr:"
	answerMarker = "<!-- ocr:answer -->"
)

var ignoredRE = regexp.MustCompile(`^<!-- ocr:ignored fp=([0-9A-Za-z_-]{1,64}) -->$`)

func ignoredMarker(fp string) string { return markerPrefix + "ignored fp=" + fp + " -->" }

// lastLine is the last non-empty line of body, trimmed.
func lastLine(body string) string {
	body = strings.TrimRight(body, " \t\r\n")
	return strings.TrimSpace(body[strings.LastIndexByte(body, '\n')+1:])
}

// markedByOCR reports whether body ends with one of ocr's hidden markers:
// a comment ocr wrote (or one made to look like it), never a question.
func markedByOCR(body string) bool {
	return strings.HasPrefix(lastLine(body), markerPrefix)
}

// ignoredFingerprint is the fingerprint an ignore reply records.
func ignoredFingerprint(body string) (string, bool) {
	m := ignoredRE.FindStringSubmatch(lastLine(body))
	if m == nil {
		return "", false
	}
	return m[1], true
}
