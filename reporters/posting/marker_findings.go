package posting

import (
	"bytes"
	"cmp"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"io"
	"regexp"
	"slices"

	"github.com/ocr-ci/ocr/review"
)

// The findings of the last complete review ride in the sticky summary as
// one hidden line, so incremental reviews can carry them forward:
//
//	<!-- ocr:findings v1 BASE64(GZIP(JSON array of carried)) -->
//
// Standard base64 has no '-' or '>', so the payload can never close the
// HTML comment. The bytes are deterministic for the same findings (sorted,
// struct-ordered JSON, gzip without name or time), so an unchanged review
// renders an identical summary and a re-run writes nothing.
const findingsPrefix = markerPrefix + "findings v1 "

// Limits on what a findings marker may decode to: the summary is written
// by ocr, but anyone who can comment can post something that looks like it.
const (
	maxFindingsEncoded = 1 << 20 // base64 characters read at most
	maxFindingsJSON    = 1 << 20 // decompressed bytes (a gzip bomb stops here)
	maxFindingsCount   = 10000
	maxCarriedField    = 64 << 10 // bytes per text field of one finding
	maxCarriedPasses   = 100      // votes of more passes are not ocr's
)

var (
	findingsMarkerRE = regexp.MustCompile(`^<!-- ocr:findings v1 ([A-Za-z0-9+/]*={0,2}) -->$`)
	// fingerprintRE is what a fingerprint may be: it is written back into
	// hidden markers, so nothing that could end an HTML comment.
	fingerprintRE = regexp.MustCompile(`^[0-9A-Za-z_-]{1,64}$`)
)

// carried is one finding as recorded in the summary: what is needed to
// show it again and recognise it, never the model's Thinking. Lines are on
// the side of the head that was reviewed then.
type carried struct {
	Path         string `json:"path"`
	OldPath      string `json:"old_path,omitempty"`
	Side         string `json:"side,omitempty"`
	StartLine    int    `json:"start_line,omitempty"`
	EndLine      int    `json:"end_line,omitempty"`
	Category     string `json:"category"`
	Severity     string `json:"severity"`
	Content      string `json:"content"`
	Suggestion   string `json:"suggestion,omitempty"`
	ExistingCode string `json:"existing_code,omitempty"`
	RuleID       string `json:"rule_id,omitempty"`
	Fingerprint  string `json:"fingerprint"`
	// Votes are the passes that found it (--passes), so a re-run that
	// reuses the review reports them too.
	Votes *review.Votes `json:"votes,omitempty"`
}

// findingsMarker renders the findings line within budget characters: the
// most severe findings that fit. It returns the line ("" when not even an
// empty list fits) and how many findings were left out.
func findingsMarker(cs []review.Comment, budget int) (line string, cut int) {
	items := sortedCarried(cs)
	n := len(items)
	line, ok := encodeFindings(items, budget)
	if ok {
		return line, 0
	}
	// Binary search for the longest prefix that fits: sizes grow with the
	// prefix almost monotonically; the final check below settles the rest.
	lo, hi := 0, n-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if _, ok := encodeFindings(items[:mid], budget); ok {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	for k := lo; k >= 0; k-- {
		if line, ok := encodeFindings(items[:k], budget); ok {
			return line, n - k
		}
	}
	return "", n
}

// sortedCarried converts and orders findings: most severe first, then by
// their encoding, a total order independent of the input order.
func sortedCarried(cs []review.Comment) []carried {
	type keyed struct {
		c    carried
		rank int
		js   []byte
	}
	ks := make([]keyed, 0, len(cs))
	for _, c := range cs {
		k := toCarried(c)
		js, _ := json.Marshal(k)
		ks = append(ks, keyed{k, c.Severity.Rank(), js})
	}
	slices.SortFunc(ks, func(a, b keyed) int {
		return cmp.Or(cmp.Compare(b.rank, a.rank), bytes.Compare(a.js, b.js))
	})
	out := make([]carried, len(ks))
	for i, k := range ks {
		out[i] = k.c
	}
	return out
}

func toCarried(c review.Comment) carried {
	return carried{Path: c.Path, OldPath: c.OldPath, Side: string(c.Side), StartLine: c.StartLine,
		EndLine: c.EndLine, Category: string(c.Category), Severity: string(c.Severity), Content: c.Content,
		Suggestion: c.Suggestion, ExistingCode: c.ExistingCode, RuleID: c.RuleID, Fingerprint: fingerprintOf(c), Votes: c.Votes}
}

// encodeFindings renders items as a marker line; ok is false when the line
// exceeds budget or the JSON exceeds what the reader accepts.
func encodeFindings(items []carried, budget int) (string, bool) {
	if items == nil {
		items = []carried{}
	}
	js, err := json.Marshal(items)
	if err != nil || len(js) > maxFindingsJSON {
		return "", false
	}
	var z bytes.Buffer
	w, _ := gzip.NewWriterLevel(&z, gzip.BestCompression) // the header has no name and no time
	if _, err := w.Write(js); err != nil {
		return "", false
	}
	if err := w.Close(); err != nil {
		return "", false
	}
	line := findingsPrefix + base64.StdEncoding.EncodeToString(z.Bytes()) + " -->"
	return line, len(line) <= budget
}

// readFindings decodes a findings line. Anything wrong — not the marker,
// bad base64 or gzip, too large, not the JSON expected, an invalid
// finding — yields nil: the findings are then unknown, never an error
// that stops the run.
func readFindings(line string) []review.Comment {
	if len(line) > maxFindingsEncoded+len(findingsPrefix)+4 {
		return nil
	}
	m := findingsMarkerRE.FindStringSubmatch(line)
	if m == nil {
		return nil
	}
	raw, err := base64.StdEncoding.DecodeString(m[1])
	if err != nil {
		return nil
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return nil
	}
	js, err := io.ReadAll(io.LimitReader(zr, maxFindingsJSON+1))
	if err != nil || len(js) > maxFindingsJSON {
		return nil
	}
	var items []carried
	if err := json.Unmarshal(js, &items); err != nil || items == nil || len(items) > maxFindingsCount {
		return nil
	}
	out := make([]review.Comment, 0, len(items))
	for _, it := range items {
		c, ok := fromCarried(it)
		if !ok {
			return nil
		}
		out = append(out, c)
	}
	return out
}

// fromCarried checks one recorded finding and converts it back.
func fromCarried(it carried) (review.Comment, bool) {
	side := review.Side(it.Side)
	switch {
	case it.Path == "" || it.StartLine < 0 || it.EndLine < 0,
		it.StartLine == 0 && it.EndLine != 0,
		it.EndLine != 0 && it.EndLine < it.StartLine,
		side != review.SideNew && side != review.SideOld && side != review.SideNone,
		len(it.Path)+len(it.OldPath)+len(it.RuleID)+len(it.Fingerprint) > maxCarriedField,
		len(it.Content) > maxCarriedField || len(it.Suggestion) > maxCarriedField || len(it.ExistingCode) > maxCarriedField,
		it.Votes != nil && (it.Votes.Found < 1 || it.Votes.Found > it.Votes.Passes || it.Votes.Passes > maxCarriedPasses):
		return review.Comment{}, false
	}
	c := review.Comment{
		Location: review.Location{Path: it.Path, OldPath: it.OldPath, Side: side, StartLine: it.StartLine,
			EndLine: it.EndLine},
		Content: it.Content, Suggestion: it.Suggestion, ExistingCode: it.ExistingCode, RuleID: it.RuleID,
		Category: review.ParseCategory(it.Category), Severity: review.ParseSeverity(it.Severity),
		Fingerprint: it.Fingerprint, Votes: it.Votes,
	}
	if c.Fingerprint == "" {
		c.Fingerprint = review.Fingerprint(c.Path, c.Category, c.ExistingCode)
	}
	return c, fingerprintRE.MatchString(c.Fingerprint)
}
