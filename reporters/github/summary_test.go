package github_test

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/reporters/github"
	"github.com/ocr-ci/ocr/reporters/internal/reportertest"
	"github.com/ocr-ci/ocr/review"
)

var summaryOpts = github.SummaryOptions{ServerURL: "https://github.com", Repository: "acme/shop"}

func TestSummaryGolden(t *testing.T) {
	for name, r := range reportertest.FixtureCases() {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := (&github.Summary{W: &buf, Options: summaryOpts}).Report(context.Background(), r); err != nil {
				t.Fatal(err)
			}
			reportertest.AssertGolden(t, name+".summary.md.golden", buf.Bytes())
		})
	}
}

// TestSummaryNoInjection checks the rendered summary: model text adds no
// HTML, links, images or mentions, and ocr's own links are there.
func TestSummaryNoInjection(t *testing.T) {
	md := github.SummaryMarkdown(reportertest.FixtureReview(), summaryOpts)
	reportertest.AssertSummarySafe(t, md, "https://github.com/acme/shop/blob/")
	links := reportertest.Render(md).Links
	for _, want := range []string{
		"https://github.com/acme/shop/blob/2222222222222222222222222222222222222222/internal/db/query.go#L10-L12",
		"https://github.com/acme/shop/blob/1111111111111111111111111111111111111111/pkg/old_util.go#L5-L7",
	} {
		if !slices.Contains(links, want) {
			t.Errorf("link %q missing from the rendered summary; links: %q", want, links)
		}
	}
}

// TestSummaryCodeSpans checks that the model's inline code renders as
// code, in the table and in the details, and that what is around a span,
// or a backtick that opens none, stays escaped.
func TestSummaryCodeSpans(t *testing.T) {
	content := "Use `x` not ``a`b``, see `a|b` and ` `` ` and `<img src=x>` but not `@octocat` [l](https://evil.example) `\nsecond `y` line, stray ` tick"
	r := &review.Review{Status: review.StatusComplete, Head: "abc", Comments: []review.Comment{{
		Location: review.Location{Path: "a.go", Side: review.SideNew, StartLine: 3, EndLine: 4},
		Content:  content, Category: review.CategoryBug, Severity: review.SeverityHigh,
	}}}
	md := github.SummaryMarkdown(r, summaryOpts)
	reportertest.AssertSummarySafe(t, md, "https://github.com/acme/shop/blob/")
	var spans []string
	for _, c := range reportertest.Render(md).Code {
		spans = append(spans, c.Text)
	}
	// The head commit, the table row (first line), the details (both lines).
	want := []string{"abc", "x", "a`b", "a|b", "``", "<img src=x>", "@octocat", "x", "a`b", "a|b", "``", "<img src=x>", "@octocat", "y"}
	if !slices.Equal(spans, want) {
		t.Errorf("code spans %q, want %q in:\n%s", spans, want, md)
	}
}

func TestSummaryCap(t *testing.T) {
	r := &review.Review{Status: review.StatusComplete}
	for i := 0; i < 500; i++ {
		r.Comments = append(r.Comments, review.Comment{Location: review.Location{Path: fmt.Sprintf("f%03d.go", i), Side: review.SideNew, StartLine: 1, EndLine: 1},
			Content: strings.Repeat("long text ", 100), Severity: review.SeverityLow, Category: review.CategoryStyle})
	}
	md := github.SummaryMarkdown(r, github.SummaryOptions{MaxBytes: 60000})
	if len(md) > 60000 {
		t.Errorf("summary is %d bytes, over the 60000 cap", len(md))
	}
	if !regexp.MustCompile(`\d+ finding\(s\) omitted to keep this summary under 58 KiB`).MatchString(md) {
		t.Errorf("no omission note:\n%s", md[len(md)-400:])
	}
	if big := github.SummaryMarkdown(r, github.SummaryOptions{}); len(big) >= 1<<20 || strings.Contains(big, "omitted") {
		t.Errorf("default cap: %d bytes, omitted=%v", len(big), strings.Contains(big, "omitted"))
	}
}

func TestGitHubOutput(t *testing.T) {
	var buf bytes.Buffer
	out := &github.Output{W: &buf, SARIFPath: "out/ocr.sarif"}
	if err := out.Report(context.Background(), reportertest.FixtureReview()); err != nil {
		t.Fatal(err)
	}
	want := "comments=6\nmax-severity=critical\nstatus=partial\nsarif=out/ocr.sarif\n"
	if buf.String() != want {
		t.Errorf("got %q, want %q", buf.String(), want)
	}
	buf.Reset()
	out = &github.Output{W: &buf, SARIFPath: "a\nb", Rand: strings.NewReader(strings.Repeat("\x01", 32))}
	if err := out.Report(context.Background(), reportertest.CleanReview()); err != nil {
		t.Fatal(err)
	}
	want = "comments=0\nmax-severity=\nstatus=complete\nsarif<<ghadelimiter_01010101010101010101010101010101\na\nb\nghadelimiter_01010101010101010101010101010101\n"
	if buf.String() != want {
		t.Errorf("got %q, want %q", buf.String(), want)
	}
}
