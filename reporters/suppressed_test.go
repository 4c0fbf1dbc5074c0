package reporters_test

import (
	"testing"

	"github.com/ocr-ci/ocr/reporters"
	"github.com/ocr-ci/ocr/review"
)

// A finding someone ignored does not trip the gate: the only high finding
// ignored is exit 0, and Why says nothing; another high one still trips.
func TestGateSkipsSuppressed(t *testing.T) {
	ignored := review.Comment{Severity: review.SeverityHigh, Suppressed: &review.Suppression{By: "alice", Reason: "callers validate b"}}
	r := &review.Review{Status: review.StatusComplete, Comments: []review.Comment{ignored, {Severity: review.SeverityLow}}}
	if got := reporters.ExitCode(r, reporters.FailHigh, false); got != reporters.ExitOK {
		t.Errorf("ExitCode = %d, want 0: the only high finding is ignored", got)
	}
	if why := reporters.FailHigh.Why(r.Comments); why != "" {
		t.Errorf("Why = %q", why)
	}
	r.Comments = append(r.Comments, review.Comment{Severity: review.SeverityHigh})
	if got := reporters.ExitCode(r, reporters.FailHigh, false); got != reporters.ExitFindings {
		t.Errorf("ExitCode = %d, want 1", got)
	}
}

func TestIgnoredLine(t *testing.T) {
	alice := &review.Suppression{By: "alice", Reason: "callers validate b"}
	cs := []review.Comment{{}, {Suppressed: alice}}
	if got := reporters.IgnoredLine(cs); got != "1 finding ignored (by @alice: callers validate b)" {
		t.Errorf("IgnoredLine = %q", got)
	}
	cs = append(cs, review.Comment{Suppressed: &review.Suppression{By: review.RuleFileIgnore}}, review.Comment{Suppressed: alice})
	if got := reporters.IgnoredLine(cs); got != "3 findings ignored (by @alice: callers validate b; by rule.json)" {
		t.Errorf("IgnoredLine = %q", got)
	}
	if got := reporters.IgnoredLine(cs[:1]); got != "" {
		t.Errorf("IgnoredLine(none) = %q", got)
	}
}
