package reporters

import (
	"fmt"
	"strings"

	"github.com/ocr-ci/ocr/review"
)

// Exit codes of ocr, as documented in the README: the one exit-code table.
const (
	// ExitOK: the review is complete and nothing reached the --fail-on threshold.
	ExitOK = 0
	// ExitFindings: at least one comment is at or above the --fail-on threshold.
	ExitFindings = 1
	// ExitUsage: a usage or configuration error (flags, environment,
	// arguments, an unusable repository or range): nothing was reviewed.
	// The runner decides it.
	ExitUsage = 2
	// ExitIncomplete: some or all selected files were not reviewed.
	ExitIncomplete = 3
)

// FailOn is the severity threshold of the gate; FailNever disables it.
type FailOn string

// The values accepted by --fail-on / OCR_FAIL_ON.
const (
	FailCritical FailOn = "critical"
	FailHigh     FailOn = "high"
	FailMedium   FailOn = "medium"
	FailLow      FailOn = "low"
	FailNever    FailOn = "never"
)

// ParseFailOn reads a --fail-on value; the empty string means never.
func ParseFailOn(s string) (FailOn, error) {
	switch v := FailOn(strings.ToLower(strings.TrimSpace(s))); v {
	case FailCritical, FailHigh, FailMedium, FailLow, FailNever:
		return v, nil
	case "":
		return FailNever, nil
	}
	return "", fmt.Errorf("invalid --fail-on value %q: use critical, high, medium, low or never", s)
}

// rank is the lowest severity rank that trips the gate; 0 never trips.
func (f FailOn) rank() int {
	if f == FailNever {
		return 0
	}
	return review.Severity(f).Rank()
}

// ExitCode decides the exit status of a finished review: ExitIncomplete when
// the review did not cover every selected file (unless allowPartial and
// something was reviewed), else ExitFindings when a comment is at or above
// failOn, else ExitOK; a suppressed comment (someone ignored it) never
// trips the gate. A failed review (nothing reviewed) is always
// ExitIncomplete: allowPartial accepts gaps, not a review of nothing.
func ExitCode(r *review.Review, failOn FailOn, allowPartial bool) int {
	switch r.Status {
	case review.StatusFailed:
		return ExitIncomplete
	case review.StatusPartial:
		if !allowPartial {
			return ExitIncomplete
		}
	}
	if t := failOn.rank(); t > 0 && MaxSeverity(review.ActiveComments(r.Comments)).Rank() >= t {
		return ExitFindings
	}
	return ExitOK
}

// Tripped counts the comments at or above the threshold, suppressed ones
// aside; 0 for FailNever.
func (f FailOn) Tripped(cs []review.Comment) int {
	t, n := f.rank(), 0
	for _, c := range cs {
		if t > 0 && c.Suppressed == nil && c.Severity.Rank() >= t {
			n++
		}
	}
	return n
}

// Why is the one line that explains ExitFindings, e.g. "2 finding(s) at or
// above high (--fail-on high): exit 1"; "" when the gate is not tripped.
func (f FailOn) Why(cs []review.Comment) string {
	n := f.Tripped(cs)
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("%d finding(s) at or above %s (--fail-on %s): exit %d", n, f, f, ExitFindings)
}

// MaxSeverity is the most severe severity among comments, "" when there are none.
func MaxSeverity(cs []review.Comment) review.Severity {
	var top review.Severity
	for _, c := range cs {
		if c.Severity.Rank() > top.Rank() {
			top = c.Severity
		}
	}
	return top
}
