package github_test

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"

	"github.com/ocr-ci/ocr/reporters/github"
	"github.com/ocr-ci/ocr/review"
)

// stepSummaryLimit is GitHub's limit on one step's summary.
const stepSummaryLimit = 1 << 20

// bigReview has n findings of about size bytes each (text and suggestion),
// files not reviewed with paths of pathLen bytes and errors of errLen.
func bigReview(n, size, files, pathLen, errs, errLen int) *review.Review {
	r := &review.Review{Status: review.StatusPartial, Head: "abc", Base: "def"}
	unit := "Unchecked error <b>@x</b> #1 [l](https://e.x) `c`. "
	for i := 0; i < n; i++ {
		r.Comments = append(r.Comments, review.Comment{
			Location: review.Location{Path: fmt.Sprintf("pkg/f%03d.go", i), Side: review.SideNew, StartLine: 3, EndLine: 4},
			Content:  strings.Repeat(unit, size/2/len(unit)), Suggestion: strings.Repeat("x := f() // ```\n", size/2/16),
			Severity: review.SeverityMedium, Category: review.CategoryBug,
		})
	}
	for i := 0; i < files; i++ {
		r.Files = append(r.Files, review.FileCoverage{Path: fmt.Sprintf("%03d/", i) + strings.Repeat("d#|/", pathLen/4),
			Reason: review.ReasonTooLarge, Detail: strings.Repeat("x", 100)})
	}
	for i := 0; i < errs; i++ {
		r.Errors = append(r.Errors, strings.Repeat("e@#", errLen/3))
	}
	return r
}

var omittedRE = regexp.MustCompile(`\n> (\d+) finding\(s\) omitted to keep this summary under \d+ KiB; the SARIF and JSON reports list all of them\.\n`)

// TestSummaryBudgetHoldsForEveryPart: with 300 findings of 4 KB (what
// --max-comments 1000 lets through), and also with hundreds of files not
// reviewed under long paths and long errors, the step summary stays under
// GitHub's 1 MiB, lists whole findings and says how many more the SARIF
// and JSON reports hold. Rendered, every block is closed: the usage
// heading after the findings is a heading, not code.
func TestSummaryBudgetHoldsForEveryPart(t *testing.T) {
	cases := map[string]*review.Review{
		"300 findings of 4 KB":              bigReview(300, 4096, 0, 0, 0, 0),
		"and 300 long paths and 200 errors": bigReview(300, 4096, 300, 4096, 200, 4096),
		"one finding of 2 MB":               bigReview(1, 2<<20, 0, 0, 0, 0), // shown cut, its suggestion left out
	}
	for name, r := range cases {
		t.Run(name, func(t *testing.T) {
			md := github.SummaryMarkdown(r, summaryOpts)
			t.Logf("%d bytes", len(md))
			if len(md) >= stepSummaryLimit {
				t.Fatalf("the step summary is %d bytes, over GitHub's %d", len(md), stepSummaryLimit)
			}
			shown := strings.Count(md, "<details><summary>") - min(1, len(r.Files))
			m := omittedRE.FindStringSubmatch(md)
			if m == nil && shown < len(r.Comments) {
				t.Fatalf("%d of %d findings shown, and no note says so", shown, len(r.Comments))
			}
			if m != nil {
				if n, _ := strconv.Atoi(m[1]); n+shown != len(r.Comments) {
					t.Errorf("%d shown + %d omitted != %d findings", shown, n, len(r.Comments))
				}
			}
			checkBlocksClosed(t, md, strings.Count(md, "**Suggested change:**"))
		})
	}
}

// checkBlocksClosed renders md: the last heading must be "Usage" (a fence
// left open would swallow it), and there must be one fenced block per
// suggestion shown.
func checkBlocksClosed(t *testing.T, md string, suggestions int) {
	t.Helper()
	src := []byte(md)
	var last string
	fences := 0
	_ = ast.Walk(goldmark.New(goldmark.WithExtensions(extension.GFM)).Parser().Parse(text.NewReader(src)),
		func(n ast.Node, entering bool) (ast.WalkStatus, error) {
			switch n := n.(type) {
			case *ast.Heading:
				if entering {
					last = string(n.Lines().Value(src))
				}
			case *ast.FencedCodeBlock:
				if entering {
					fences++
				}
			}
			return ast.WalkContinue, nil
		})
	if last != "Usage" || fences != suggestions {
		t.Errorf("last heading %q, %d fenced blocks for %d suggestions shown", last, fences, suggestions)
	}
}
