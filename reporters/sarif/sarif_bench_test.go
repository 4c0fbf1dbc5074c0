package sarif_test

import (
	"fmt"
	"io"
	"testing"

	"github.com/ocr-ci/ocr/reporters/internal/reportertest"
	"github.com/ocr-ci/ocr/reporters/sarif"
	"github.com/ocr-ci/ocr/review"
)

// bigReview has n distinct comments spread over 100 files.
func bigReview(n int) *review.Review {
	r := reportertest.FixtureReview()
	r.Comments = nil
	sevs := []review.Severity{review.SeverityLow, review.SeverityMedium, review.SeverityHigh, review.SeverityCritical}
	for i := 0; i < n; i++ {
		path := fmt.Sprintf("pkg/f%03d.go", i%100)
		code := fmt.Sprintf("x%d := f()", i)
		r.Comments = append(r.Comments, review.Comment{
			Location: review.Location{Path: path, Side: review.SideNew, StartLine: i%500 + 1, EndLine: i%500 + 2, InHunk: true},
			Content:  fmt.Sprintf("Finding %d: the error from f is ignored and the value may be nil.", i), ExistingCode: code,
			Category: review.Categories[i%len(review.Categories)], Severity: sevs[i%4], RuleID: "ocr/go",
			Fingerprint: review.Fingerprint(path, review.Categories[i%len(review.Categories)], code),
		})
	}
	return r
}

// BenchmarkSARIF measures a log at GitHub's result limit and one over it
// (cut to 25,000 with a notification).
func BenchmarkSARIF(b *testing.B) {
	for _, n := range []int{1000, 25000, 30000} {
		r := bigReview(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				if err := (&sarif.Reporter{W: io.Discard}).Report(b.Context(), r); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func TestSARIFResultLimitDefault(t *testing.T) {
	if testing.Short() {
		t.Skip("large log")
	}
	d := decodeSARIF(t, sarifLog(t, &sarif.Reporter{}, bigReview(25003)))
	if n := len(d.Runs[0].Results); n != 25000 {
		t.Errorf("results = %d, want GitHub's 25000", n)
	}
}
