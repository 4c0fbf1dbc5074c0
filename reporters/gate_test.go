package reporters_test

import (
	"testing"

	"github.com/ocr-ci/ocr/reporters"
	"github.com/ocr-ci/ocr/review"
)

func TestParseFailOn(t *testing.T) {
	for in, want := range map[string]reporters.FailOn{"": "never", "HIGH": "high", " low ": "low", "never": "never", "critical": "critical"} { //nolint:gocritic // mapKey: the spaces in " low " are the input under test
		if got, err := reporters.ParseFailOn(in); err != nil || got != want {
			t.Errorf("ParseFailOn(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := reporters.ParseFailOn("info"); err == nil {
		t.Error("info accepted")
	}
}

func TestExitCode(t *testing.T) {
	withSev := func(st review.Status, sevs ...review.Severity) *review.Review {
		r := &review.Review{Status: st}
		for _, s := range sevs {
			r.Comments = append(r.Comments, review.Comment{Severity: s})
		}
		return r
	}
	cases := []struct {
		name    string
		r       *review.Review
		failOn  reporters.FailOn
		partial bool
		want    int
	}{
		{"clean", withSev(review.StatusComplete), reporters.FailLow, false, 0},
		{"below threshold", withSev(review.StatusComplete, review.SeverityMedium), reporters.FailHigh, false, 0},
		{"at threshold", withSev(review.StatusComplete, review.SeverityLow, review.SeverityHigh), reporters.FailHigh, false, 1},
		{"above threshold", withSev(review.StatusComplete, review.SeverityCritical), reporters.FailMedium, false, 1},
		{"never", withSev(review.StatusComplete, review.SeverityCritical), reporters.FailNever, false, 0},
		{"partial wins over findings", withSev(review.StatusPartial, review.SeverityCritical), reporters.FailLow, false, 3},
		{"allow partial: findings", withSev(review.StatusPartial, review.SeverityCritical), reporters.FailLow, true, 1},
		{"allow partial: clean", withSev(review.StatusPartial), reporters.FailLow, true, 0},
		{"failed is never allowed", withSev(review.StatusFailed), reporters.FailNever, true, 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := reporters.ExitCode(c.r, c.failOn, c.partial); got != c.want {
				t.Errorf("ExitCode = %d, want %d", got, c.want)
			}
		})
	}
}

func TestFailOnWhy(t *testing.T) {
	cs := []review.Comment{{Severity: review.SeverityCritical}, {Severity: review.SeverityHigh}, {Severity: review.SeverityLow}}
	for f, want := range map[reporters.FailOn]string{
		reporters.FailHigh:     "2 finding(s) at or above high (--fail-on high): exit 1",
		reporters.FailCritical: "1 finding(s) at or above critical (--fail-on critical): exit 1",
		reporters.FailLow:      "3 finding(s) at or above low (--fail-on low): exit 1",
		reporters.FailNever:    "",
	} {
		if got := f.Why(cs); got != want {
			t.Errorf("%s: Why = %q, want %q", f, got, want)
		}
	}
	if got := reporters.FailMedium.Why(cs[2:]); got != "" {
		t.Errorf("under the threshold: Why = %q, want nothing", got)
	}
}
