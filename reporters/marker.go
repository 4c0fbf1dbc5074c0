package reporters

import (
	"regexp"
	"strings"
)

// Hidden markers let ocr recognise its own comments on later runs. They are
// HTML comments, invisible in rendered Markdown on GitHub and GitLab. Every
// marker is written by ocr on a line of its own, after all model text, and is
// only read from there, so model text (whose "<!--" is neutralised anyway)
// cannot forge one.
const (
	markerPrefix  = "<!-- ocr:"
	summaryMarker = "<!-- ocr:summary -->"
	reviewMarker  = "<!-- ocr:review -->"
)

var (
	fpMarkerRE    = regexp.MustCompile(`^<!-- ocr:fp=([0-9A-Za-z_-]{1,64}) -->$`)
	stateMarkerRE = regexp.MustCompile(`^<!-- ocr:state head=([0-9a-f]{0,64}) config=([0-9A-Za-z_-]{0,64}) -->$`)
)

// fingerprintMarker is the last line of every finding's body.
func fingerprintMarker(fp string) string {
	return markerPrefix + "fp=" + fp + " -->"
}

// markerFingerprint returns the fingerprint of a body written by ocr: the
// marker must be its last non-empty line.
func markerFingerprint(body string) (string, bool) {
	m := fpMarkerRE.FindStringSubmatch(markerLastLine(body))
	if m == nil {
		return "", false
	}
	return m[1], true
}

// isSummary reports whether body is ocr's sticky summary: the marker is its
// first line.
func isSummary(body string) bool {
	first, _, _ := strings.Cut(strings.TrimLeft(body, "\r\n"), "\n")
	return strings.TrimSpace(first) == summaryMarker
}

// State is what a previous run recorded in the sticky summary: the head
// commit it reviewed and a fingerprint of its configuration. Incremental
// reviews start from State.Head when State.Config matches.
type State struct {
	Head   string
	Config string
}

// stateMarker renders the state line of the sticky summary.
func stateMarker(s State) string {
	return markerPrefix + "state head=" + s.Head + " config=" + s.Config + " -->"
}

// ReadState extracts the State from a sticky summary body; ok is false when
// the body is not an ocr summary or carries no state.
func ReadState(body string) (s State, ok bool) {
	if !isSummary(body) {
		return State{}, false
	}
	m := stateMarkerRE.FindStringSubmatch(markerLastLine(body))
	if m == nil {
		return State{}, false
	}
	return State{Head: m[1], Config: m[2]}, true
}

func markerLastLine(body string) string {
	body = strings.TrimRight(body, " \t\r\n")
	if i := strings.LastIndexByte(body, '\n'); i >= 0 {
		body = body[i+1:]
	}
	return strings.TrimSpace(body)
}
