package sarif_test

import (
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"testing"
	"time"

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

// BenchmarkSARIFVsLegacy times Log and the former encoder (LegacyLog:
// go-sarif, decode, prune, re-encode) on the same review in one run,
// alternating, with a collection before each so neither pays for the
// other's garbage, and reports before/after (the old time over the new).
func BenchmarkSARIFVsLegacy(b *testing.B) {
	for _, n := range []int{1000, 25000} {
		r, s := bigReview(n), &sarif.Reporter{}
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			var before, after time.Duration
			runs := 0
			for b.Loop() {
				before += timeLog(b, s.LegacyLog, r)
				after += timeLog(b, s.Log, r)
				runs++
			}
			b.ReportMetric(float64(before)/float64(after), "before/after")
			b.ReportMetric(float64(before)/1e6/float64(runs), "before-ms/log")
			b.ReportMetric(float64(after)/1e6/float64(runs), "after-ms/log")
		})
	}
}

// timeLog is how long one log of r takes, garbage of earlier work collected first.
func timeLog(b *testing.B, log func(*review.Review) ([]byte, error), r *review.Review) time.Duration {
	b.Helper()
	runtime.GC()
	start := time.Now()
	if _, err := log(r); err != nil {
		b.Fatal(err)
	}
	return time.Since(start)
}

func TestSARIFResultLimitDefault(t *testing.T) {
	if testing.Short() {
		t.Skip("large log")
	}
	t.Parallel()
	// Only the results are counted: decoding all of each into sarifDoc
	// took ~50% longer (190 ms against 130 ms).
	var d struct {
		Runs []struct{ Results []struct{} }
	}
	if err := json.Unmarshal(sarifLog(t, &sarif.Reporter{}, bigReview(25003)), &d); err != nil {
		t.Fatal(err)
	}
	if len(d.Runs) != 1 {
		t.Fatalf("runs = %d, want 1", len(d.Runs))
	}
	if n := len(d.Runs[0].Results); n != 25000 {
		t.Errorf("results = %d, want GitHub's 25000", n)
	}
}
