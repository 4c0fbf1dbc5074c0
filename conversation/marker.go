package conversation

import (
	"encoding/base64"
	"regexp"
	"time"
	"unicode/utf8"

	"github.com/ocr-ci/ocr/reporters/posting"
	"github.com/ocr-ci/ocr/review"
)

// ocr's answers end with a hidden marker line in posting's one grammar
// (posting.Marker, read from posting.MarkerLine): answerMarker on every
// answer, ackMarker on an accepted pause or resume, ignoredMarker on the
// reply to "ignore" (how later runs learn the state). A marker counts only
// in a comment by ocr's account (Forge.Own): anyone can type one.
var (
	answerMarker = posting.Marker("answer")
	// outsiderMarker ends the one reply per pull request that tells an
	// untrusted author who may ask.
	outsiderMarker = posting.Marker("outsider")
)

// The ignore marker also records who ignored the finding and the reason
// (unpadded base64, so no text of theirs can close the comment), for the
// reports of later runs (review.Suppression); older markers have neither.
var (
	ackRE     = regexp.MustCompile(`^<!-- ocr:ack verb=(pause|resume) by=([0-9A-Za-z_.\[\]-]{1,100}) at=([0-9TZ:-]{20}) -->$`)
	ignoredRE = regexp.MustCompile(`^<!-- ocr:ignored fp=([0-9A-Za-z_-]{1,64})(?: by=([0-9A-Za-z_.\[\]-]{1,100}))?(?: reason=([0-9A-Za-z+/]+))? -->$`)
	loginRE   = regexp.MustCompile(`^[0-9A-Za-z_.\[\]-]{1,100}$`)
)

// maxReason bounds the reason a marker records, in runes.
const maxReason = 300

func ignoredMarker(fp, by, reason string) string {
	fields := []string{"fp=" + fp}
	if loginRE.MatchString(by) {
		fields = append(fields, "by="+by)
	}
	if r := []rune(reason); len(r) > maxReason {
		reason = string(r[:maxReason]) + "…"
	}
	if reason != "" {
		fields = append(fields, "reason="+base64.RawStdEncoding.EncodeToString([]byte(reason)))
	}
	return posting.Marker("ignored", fields...)
}

// lastLine is the line markers are read from (posting.MarkerLine).
func lastLine(body string) string { return posting.MarkerLine(body) }

// markedByOCR reports whether body ends with one of ocr's hidden markers:
// a comment ocr wrote (or one made to look like it), never a question.
func markedByOCR(body string) bool { return posting.IsMarked(body) }

// ignoredFingerprint is the fingerprint an ignore reply records, with
// who ignored it and why when the marker says.
func ignoredFingerprint(body string) (string, review.Suppression, bool) {
	m := ignoredRE.FindStringSubmatch(lastLine(body))
	if m == nil {
		return "", review.Suppression{}, false
	}
	reason, err := base64.RawStdEncoding.DecodeString(m[3])
	if err != nil || !utf8.Valid(reason) {
		reason = nil
	}
	return m[1], review.Suppression{By: m[2], Reason: string(reason)}, true
}

// ackMarker records that ocr accepted a pause or resume: who asked, what,
// and when (UTC, to the second). State is read only from these markers in
// comments by ocr's own account (ReadState), never from command text.
func ackMarker(v Verb, by string, at time.Time) string {
	if !loginRE.MatchString(by) {
		by = "-"
	}
	return posting.Marker("ack", "verb="+string(v), "by="+by, "at="+at.UTC().Format(time.RFC3339))
}

// readAck is the command an acknowledgement records; ok is false for any
// other body.
func readAck(body string) (v Verb, by string, ok bool) {
	m := ackRE.FindStringSubmatch(lastLine(body))
	if m == nil {
		return "", "", false
	}
	return Verb(m[1]), m[2], true
}
