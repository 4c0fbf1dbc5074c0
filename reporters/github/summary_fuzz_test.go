package github_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/reporters/github"
	"github.com/ocr-ci/ocr/reporters/internal/reportertest"
	"github.com/ocr-ci/ocr/review"
)

var unescPipeRE = regexp.MustCompile(`(^|[^\\])\|`)

// FuzzSummaryMarkdown asserts that model text and paths cannot add HTML,
// links, images, mentions, issue references, workflow commands or table
// cells to the rendered summary, code spans included.
func FuzzSummaryMarkdown(f *testing.F) {
	for _, c := range reportertest.FixtureComments() {
		f.Add(c.Content, c.Path, c.Suggestion)
	}
	f.Add("<img src=x onerror=alert(1)>\n===\n| a | b |\n|---|---|", "a](https://x)", "```\n</details>")
	f.Add("@org/team #1 www.evil.com https://evil.com <!-- x -->", "x@y#z", "~~~")
	f.Add("see `a|b` and ``x`<b>`` then `@org` ` `` `\n::error::x `::warning::y`", "`p`.go", "`")
	f.Fuzz(func(t *testing.T, content, path, suggestion string) {
		r := &review.Review{Status: review.StatusComplete, Head: "abc", Comments: []review.Comment{{
			Location: review.Location{Path: path, Side: review.SideNew, StartLine: 3, EndLine: 4},
			Content:  content, Suggestion: suggestion, Category: review.CategoryBug, Severity: review.SeverityHigh,
		}}}
		md := github.SummaryMarkdown(r, summaryOpts)
		reportertest.AssertSummarySafe(t, md, "https://github.com/acme/shop/blob/abc/")
		for _, line := range strings.Split(md, "\n") {
			if strings.HasPrefix(line, "| 🟠") && len(unescPipeRE.FindAllString(line, -1)) != 5 {
				t.Fatalf("table row with %d cells: %q", len(unescPipeRE.FindAllString(line, -1))-1, line)
			}
		}
	})
}
