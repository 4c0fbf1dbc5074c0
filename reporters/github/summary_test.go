package github_test

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
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

// TestSummaryNoInjection checks that model text cannot add HTML, links,
// images or mentions: every tag, link and @ in the output is ours.
func TestSummaryNoInjection(t *testing.T) {
	md := github.SummaryMarkdown(reportertest.FixtureReview(), summaryOpts)
	tags := regexp.MustCompile(`</?([a-zA-Z]+)`).FindAllStringSubmatch(md, -1)
	for _, m := range tags {
		if m[1] != "details" && m[1] != "summary" && m[1] != "br" && m[1] != "sub" {
			t.Errorf("raw HTML tag %q in the summary", m[0])
		}
	}
	for _, link := range regexp.MustCompile(`\]\(([^)]*)\)`).FindAllStringSubmatch(md, -1) {
		if !strings.HasPrefix(link[1], "https://github.com/acme/shop/blob/") {
			t.Errorf("unexpected link target %q", link[1])
		}
	}
	for _, bad := range []string{"@octocat", "#12", "<script", "](https://evil", "\x1b", "\u202e"} {
		if strings.Contains(md, bad) {
			t.Errorf("summary contains %q", bad)
		}
	}
	if !strings.Contains(md, "[internal\\/db\\/query\\.go\\:10\\-12](https://github.com/acme/shop/blob/2222222222222222222222222222222222222222/internal/db/query.go#L10-L12)") {
		t.Error("head-commit link for a new-side range missing")
	}
	if !strings.Contains(md, "(https://github.com/acme/shop/blob/1111111111111111111111111111111111111111/pkg/old_util.go#L5-L7)") {
		t.Error("base-commit link for removed code missing")
	}
	// The table has exactly four cells per row: pipes in text are escaped.
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(line, "| ") && len(regexp.MustCompile(`(^|[^\\])\|`).FindAllString(line, -1)) != 5 && !strings.Contains(line, "Reason") && strings.Count(line, "|") != 3 {
			t.Errorf("table row with stray cells: %q", line)
		}
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
