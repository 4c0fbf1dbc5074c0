package github_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/reporters/github"
	"github.com/ocr-ci/ocr/reporters/internal/reportertest"
	"github.com/ocr-ci/ocr/review"
)

var (
	htmlTagRE   = regexp.MustCompile(`<\s*/?\s*([a-zA-Z!?][^\s>/]*)`)
	linkRE      = regexp.MustCompile(`(?:^|[^\\])\]\(([^)]*)\)`) // an unescaped ](
	mentionRE   = regexp.MustCompile(`[@#][\p{L}\p{N}_]`)
	entityRE    = regexp.MustCompile(`&#[0-9]+;`)
	unescPipeRE = regexp.MustCompile(`(^|[^\\])\|`)
)

// FuzzSummaryMarkdown asserts that model text and paths cannot add HTML,
// links, mentions, issue references or table cells to the summary.
func FuzzSummaryMarkdown(f *testing.F) {
	for _, c := range reportertest.FixtureComments() {
		f.Add(c.Content, c.Path, c.Suggestion)
	}
	f.Add("<img src=x onerror=alert(1)>\n===\n| a | b |\n|---|---|", "a](https://x)", "```\n</details>")
	f.Add("@org/team #1 www.evil.com https://evil.com <!-- x -->", "x@y#z", "~~~")
	f.Fuzz(func(t *testing.T, content, path, suggestion string) {
		r := &review.Review{Status: review.StatusComplete, Head: "abc", Comments: []review.Comment{{
			Location: review.Location{Path: path, Side: review.SideNew, StartLine: 3, EndLine: 4},
			Content:  content, Suggestion: suggestion, Category: review.CategoryBug, Severity: review.SeverityHigh,
		}}}
		md := github.SummaryMarkdown(r, summaryOpts)
		text := outsideFences(md)
		for _, m := range htmlTagRE.FindAllStringSubmatch(text, -1) {
			if m[1] != "details" && m[1] != "summary" && m[1] != "br" && m[1] != "sub" {
				t.Fatalf("raw HTML %q in:\n%s", m[0], md)
			}
		}
		for _, m := range linkRE.FindAllStringSubmatch(text, -1) {
			if !strings.HasPrefix(m[1], "https://github.com/acme/shop/blob/abc/") || strings.ContainsAny(m[1], " <>\"") {
				t.Fatalf("link target %q in:\n%s", m[1], md)
			}
		}
		plain := entityRE.ReplaceAllString(linkRE.ReplaceAllString(text, "]()"), "")
		if m := mentionRE.FindString(plain); m != "" {
			t.Fatalf("mention or reference %q in:\n%s", m, md)
		}
		for _, line := range strings.Split(text, "\n") {
			if strings.HasPrefix(line, "| 🟠") && len(unescPipeRE.FindAllString(line, -1)) != 5 {
				t.Fatalf("table row with %d cells: %q", len(unescPipeRE.FindAllString(line, -1))-1, line)
			}
		}
	})
}

// outsideFences drops the contents of fenced code blocks, where nothing is
// rendered, keeping the fence lines.
func outsideFences(md string) string {
	var out []string
	fence := ""
	for _, line := range strings.Split(md, "\n") {
		switch {
		case fence == "" && strings.HasPrefix(line, "```"):
			fence = line[:len(line)-len(strings.TrimLeft(line, "`"))]
			out = append(out, line)
		case fence != "" && strings.TrimSpace(line) == fence:
			fence = ""
			out = append(out, line)
		case fence == "":
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n")
}
