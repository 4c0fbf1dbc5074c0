package posting

import (
	"regexp"
	"strings"

	"github.com/ocr-ci/ocr/review"
)

// Hidden markers let ocr recognise its own comments on later runs. They are
// HTML comments, invisible in rendered Markdown on GitHub and GitLab. Every
// marker is written by ocr on a line of its own, after all model text, and is
// only read from there, so model text (whose "<!--" is neutralised anyway)
// cannot forge one. People can: anyone who can comment may type a marker,
// so a marker counts only in a comment by the account ocr posts as
// (ghTrust on GitHub, glExisting.add on GitLab).
const (
	markerPrefix  = "<!-- ocr:"
	summaryMarker = "<!-- ocr:summary -->"
	ReviewMarker  = "<!-- ocr:review -->"
)

var (
	fpMarkerRE    = regexp.MustCompile(`^<!-- ocr:fp=([0-9A-Za-z_-]{1,64}) -->$`)
	stateMarkerRE = regexp.MustCompile(`^<!-- ocr:state head=([0-9a-f]{0,64}) config=([0-9A-Za-z_-]{0,64}) -->$`)
)

// fingerprintMarker is the last line of every finding's body.
func fingerprintMarker(fp string) string {
	return Marker("fp=" + fp)
}

// MarkerFingerprint returns the fingerprint of a body written by ocr: the
// marker must be its last non-empty line.
func MarkerFingerprint(body string) (string, bool) {
	m := fpMarkerRE.FindStringSubmatch(markerLastLine(body))
	if m == nil {
		return "", false
	}
	return m[1], true
}

// IsSummary reports whether body is ocr's sticky summary: the marker is its
// first line.
func IsSummary(body string) bool {
	first, _, _ := strings.Cut(strings.TrimLeft(body, "\r\n"), "\n")
	return strings.TrimSpace(first) == summaryMarker
}

// State is what the last complete review recorded in the sticky summary:
// the head commit it reviewed, a fingerprint of its configuration and its
// findings. Incremental reviews start from State.Head when State.Config
// matches and carry State.Findings forward. A failed or partial review
// records nothing new: the summary keeps the last complete review's State.
type State struct {
	Head   string
	Config string
	// Findings are the findings of that review, most severe first, with
	// lines as they were at Head. Nil means unknown (a summary written
	// before findings were recorded, or a damaged or forged marker); empty
	// means the review found nothing. When the summary's size limit cut
	// some, only the most severe are here and the summary says so (Cut).
	Findings []review.Comment
	// Cut is set when the summary says some findings could not be
	// recorded: Findings is not the whole review.
	Cut bool
}

// stateMarker renders the state line of the sticky summary.
func stateMarker(s State) string {
	return Marker("state", "head="+s.Head, "config="+s.Config)
}

// ReadState extracts the State from a sticky summary body; ok is false when
// the body is not an ocr summary or carries no state. The state line is the
// last line; the findings line, when there is one, is right before it.
// Findings that cannot be decoded are left nil, never an error.
func ReadState(body string) (s State, ok bool) {
	if !IsSummary(body) {
		return State{}, false
	}
	prev, last := markerLastLines(body)
	m := stateMarkerRE.FindStringSubmatch(last)
	if m == nil {
		return State{}, false
	}
	return State{Head: m[1], Config: m[2], Findings: readFindings(prev), Cut: strings.Contains(body, notRecorded)}, true
}

// Marker renders a hidden marker of kind with its fields ("key=value",
// each free of spaces and "--"): the one grammar of ocr's markers,
// "<!-- ocr:KIND FIELD... -->", for every caller (the conversation's
// acknowledgements too). It is read only as a comment's last line
// (MarkerLine), and counts only in a comment by ocr's own account.
func Marker(kind string, fields ...string) string {
	return markerPrefix + strings.Join(append([]string{kind}, fields...), " ") + " -->"
}

// MarkerLine is the line a marker is read from: body's last non-empty
// line, trimmed.
func MarkerLine(body string) string { return markerLastLine(body) }

// IsMarked reports whether body ends with one of ocr's markers, of any
// kind: a comment ocr wrote, or one made to look like it.
func IsMarked(body string) bool { return strings.HasPrefix(MarkerLine(body), markerPrefix) }

func markerLastLine(body string) string {
	_, last := markerLastLines(body)
	return last
}

// markerLastLines returns the last two lines of body, trimmed, ignoring
// trailing blank lines.
func markerLastLines(body string) (prev, last string) {
	body = strings.TrimRight(body, " \t\r\n")
	i := strings.LastIndexByte(body, '\n')
	if i < 0 {
		return "", strings.TrimSpace(body)
	}
	last = strings.TrimSpace(body[i+1:])
	body = body[:i]
	if j := strings.LastIndexByte(body, '\n'); j >= 0 {
		body = body[j+1:]
	}
	return strings.TrimSpace(body), last
}
