package text_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/ocr-ci/ocr/reporters/internal/reportertest"
	"github.com/ocr-ci/ocr/reporters/text"
	"github.com/ocr-ci/ocr/review"
)

func TestTextGolden(t *testing.T) {
	for name, r := range reportertest.FixtureCases() {
		for _, color := range []bool{false, true} {
			file := name + ".text.golden"
			if color {
				file = name + ".text-color.golden"
			}
			t.Run(file, func(t *testing.T) {
				var buf bytes.Buffer
				if err := (&text.Reporter{W: &buf, Color: color}).Report(context.Background(), r); err != nil {
					t.Fatal(err)
				}
				reportertest.AssertGolden(t, file, buf.Bytes())
				checkTextSafe(t, buf.String(), color)
			})
		}
	}
}

// checkTextSafe: no line can start a workflow command, no escape character
// except our own colour codes.
func checkTextSafe(t *testing.T, out string, color bool) {
	t.Helper()
	plain := out
	if color {
		for _, code := range []string{"\x1b[0m", "\x1b[1m", "\x1b[2m", "\x1b[1;31m", "\x1b[31m", "\x1b[32m", "\x1b[33m", "\x1b[34m"} {
			plain = strings.ReplaceAll(plain, code, "")
		}
	}
	if strings.ContainsAny(plain, "\x1b\u202e\r") {
		t.Errorf("unsafe character in text output:\n%q", plain)
	}
	for _, line := range strings.Split(plain, "\n") {
		l := strings.TrimLeftFunc(line, unicode.IsSpace)
		if strings.HasPrefix(l, "::") || strings.HasPrefix(l, "##[") {
			t.Errorf("line could start a workflow command: %q", line)
		}
	}
}

func TestUseColor(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	var buf bytes.Buffer
	if text.UseColor(&buf, env(nil)) {
		t.Error("colour for a buffer")
	}
	f, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	if text.UseColor(f, env(nil)) {
		t.Error("colour for a regular file")
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if tty, err := os.OpenFile("/dev/null", os.O_WRONLY, 0); err == nil {
		if !text.UseColor(tty, env(nil)) || text.UseColor(tty, env(map[string]string{"NO_COLOR": "1"})) {
			t.Error("character device: colour unless NO_COLOR")
		}
		if err := tty.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestSummaryForTerminals: caps, files not reviewed one line per reason
// (every file with Verbose), elapsed time, usage and the cost slot.
func TestSummaryForTerminals(t *testing.T) {
	r := &review.Review{Status: review.StatusPartial, Dropped: 48, Filtered: 3,
		Started: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), Finished: time.Date(2026, 1, 1, 0, 0, 12, 400_000_000, time.UTC),
		Usage: review.Usage{Requests: 7, PromptTokens: 1000, CompletionTokens: 20, CachedTokens: 512, ReasoningTokens: 12},
		Cost:  &review.Cost{Total: 0.0123, Prices: review.Prices{Input: 2, Output: 10}}}
	for i := range 5 {
		r.Files = append(r.Files, review.FileCoverage{Path: fmt.Sprintf("t%d_test.go", i), Reason: review.ReasonTest})
	}
	r.Files = append(r.Files, review.FileCoverage{Path: "a.go", Reviewed: true},
		review.FileCoverage{Path: "big.go", Reason: review.ReasonTooLarge, Detail: "over the limit"})
	var buf bytes.Buffer
	if err := (&text.Reporter{W: &buf}).Report(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{
		"48 more finding(s) dropped by the caps",
		"1 of 7 file(s) reviewed; not reviewed:\n",
		"  test         5  t0_test.go, t1_test.go, t2_test.go, and 2 more (-v lists them)\n",
		"  too_large    1  big.go (over the limit)\n",
		"ran in 12.4s: 7 request(s), 1,000 prompt + 20 completion tokens (512 of the prompt tokens cached, 12 of the completion tokens reasoning), 0.0123 (at 2 input + 10 output per million tokens)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("text report lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "t4_test.go") || strings.Contains(out, "duplicates") {
		t.Errorf("short report lists every file or the filter count:\n%s", out)
	}
	buf.Reset()
	if err := (&text.Reporter{W: &buf, Verbose: true}).Report(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	if out := buf.String(); !strings.Contains(out, "  test       t4_test.go\n") || !strings.Contains(out, "3 finding(s) removed as duplicates") {
		t.Errorf("verbose report does not list every file:\n%s", out)
	}
}

// TestIncompleteReviewSaysSoFirstAndOnce: a review that did not complete
// says so on its first line, not "no findings", and the provider's error
// is printed once (in the files not reviewed), not again as an error.
func TestIncompleteReviewSaysSoFirstAndOnce(t *testing.T) {
	t.Parallel()
	detail := "connection refused (check OCR_LLM_URL)"
	r := &review.Review{Status: review.StatusFailed,
		Files:  []review.FileCoverage{{Path: "a.go", Reason: review.ReasonProvider, Detail: detail}},
		Errors: []string{review.CoverageError(1, string(review.ReasonProvider)+": "+detail, "a.go"), "the endpoint went away"}}
	var buf bytes.Buffer
	if err := (&text.Reporter{W: &buf}).Report(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	first, _, _ := strings.Cut(out, "\n")
	if first != "review failed: no file could be reviewed (why: below)" {
		t.Errorf("first line %q, want the failure", first)
	}
	if n := strings.Count(out, detail); n != 1 || strings.Count(out, "review failed") != 1 || !strings.Contains(out, "error: the endpoint went away") {
		t.Errorf("the provider error is printed %d times (want 1), or the status twice, or another error is lost:\n%s", n, out)
	}
	if !strings.Contains(out, "no findings in the files reviewed") {
		t.Errorf("a failed review claims no findings:\n%s", out)
	}
}
