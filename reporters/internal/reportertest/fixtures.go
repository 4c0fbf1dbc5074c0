// Package reportertest holds the fixtures and fakes-side helpers the reporter
// packages test with: sample reviews, golden-file comparison, a posting
// change set and a recording fallback reporter.
package reportertest

import (
	"bytes"
	"compress/gzip"
	"path/filepath"
	"testing"
	"time"

	"github.com/ocr-ci/ocr/internal/testkit/golden"
	"github.com/ocr-ci/ocr/review"
)

// AssertGolden compares got with testdata/name, rewriting it under -update.
func AssertGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", name), got)
}

// FixtureCases are the reviews every reporter is golden-tested on.
func FixtureCases() map[string]*review.Review {
	return map[string]*review.Review{"fixture": FixtureReview(), "clean": CleanReview(), "failed": FailedReview(),
		"suppressed": SuppressedReview()}
}

// SuppressedReview is FixtureReview with its first finding ignored on the
// pull request (a reason that tries links, HTML, a mention and a
// workflow command) and its second by a rule file.
func SuppressedReview() *review.Review {
	r := FixtureReview()
	r.Comments[0].Suppressed = &review.Suppression{By: "alice",
		Reason: "callers validate b [see](https://evil.example) <img src=x> @bob\n::error::x /close"}
	r.Comments[1].Suppressed = &review.Suppression{By: review.RuleFileIgnore, Reason: "generated code"}
	return r
}

// FixtureReview is a partial review with varied comments: multi-line, old
// side, file-level, suggestions, adversarial and unicode text.
func FixtureReview() *review.Review {
	base := "1111111111111111111111111111111111111111"
	head := "2222222222222222222222222222222222222222"
	return &review.Review{
		Tool: "ocr", Version: "v0.3.0", Mode: "range", Base: base, Head: head,
		Status:   review.StatusPartial,
		Comments: FixtureComments(),
		Files: []review.FileCoverage{
			{Path: "internal/db/query.go", Status: "modified", Additions: 12, Deletions: 3, Reviewed: true},
			{Path: "cmd/main.go", Status: "modified", Additions: 40, Deletions: 2, Reviewed: true},
			{Path: "pkg/util.go", OldPath: "pkg/old_util.go", Status: "renamed", Additions: 1, Deletions: 9, Reviewed: true},
			{Path: "README.md", Status: "modified", Additions: 5, Reviewed: true},
			{Path: "web/ünï cödé|x.ts", Status: "added", Additions: 8, Reviewed: true},
			{Path: "vendor/lib/lib.go", Status: "added", Additions: 900, Reason: "vendored"},
			{Path: "db/big.sql", Status: "added", Additions: 3200, Reason: "too_large", Detail: "3200 changed lines, over the 2000-line limit"},
			{Path: "api/handler.go", Status: "modified", Additions: 60, Deletions: 10, Reason: "timeout", Detail: "review exceeded 300s"},
		},
		Dropped: 2, Filtered: 3,
		Usage:   review.Usage{Requests: 12, PromptTokens: 45210, CompletionTokens: 3204},
		Rules:   []review.Rule{{ID: "ocr/go", Title: "Go", Description: "Go-specific review guidance.", Help: "Check error handling, `context` use and goroutine lifetimes.", Tags: []string{"go"}}},
		Errors:  []string{"api/handler.go: review exceeded 300s"},
		Started: time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC), Finished: time.Date(2026, 11, 30, 10, 3, 12, 0, time.UTC),
	}
}

// FixtureComments are FixtureReview's comments.
func FixtureComments() []review.Comment {
	return []review.Comment{
		{
			Location:     review.Location{Path: "cmd/main.go", Side: review.SideNew, StartLine: 42, EndLine: 42, InHunk: false, Method: review.MethodWholeFile},
			Content:      "Possible nil dereference of cfg.\n::error file=evil.go,line=1::injected\n%0A::stop-commands::tok\n::tok::, with: commas and %25 percent\r\n##[error]legacy",
			ExistingCode: "cfg.Run()", Category: review.CategoryBug, Severity: review.SeverityHigh, RuleID: "ocr/go",
			Fingerprint: review.Fingerprint("cmd/main.go", review.CategoryBug, "cfg.Run()"),
		},
		{
			Location:     review.Location{Path: "internal/db/query.go", Side: review.SideNew, StartLine: 10, EndLine: 12, InHunk: true, Method: review.MethodHunkNew},
			Content:      "SQL is built with fmt.Sprintf from `name`: injection. <script>alert(1)</script> [click](https://evil.example) ![x](https://evil.example/x.png) @octocat | pipe, see #12 and acme/other#34",
			ExistingCode: "q := fmt.Sprintf(\"SELECT * FROM t WHERE name = '%s'\", name)\nrows, err := db.Query(q)\nif err != nil {",
			Suggestion:   "rows, err := db.Query(\"SELECT * FROM t WHERE name = ?\", name)\nif err != nil {\n",
			Category:     review.CategorySecurity, Severity: review.SeverityCritical, RuleID: "ocr/go",
			Fingerprint: review.Fingerprint("internal/db/query.go", review.CategorySecurity, "q := fmt.Sprintf"),
		},
		{
			Location:     review.Location{Path: "pkg/util.go", OldPath: "pkg/old_util.go", Side: review.SideOld, StartLine: 5, EndLine: 7, InHunk: true, Method: review.MethodHunkOld},
			Content:      "The removed check rejected empty IDs; nothing replaces it.",
			ExistingCode: "if id == \"\" {\n\treturn errEmpty\n}", Category: review.CategoryMaintainability, Severity: review.SeverityMedium, RuleID: "ocr/go",
			Fingerprint: review.Fingerprint("pkg/util.go", review.CategoryMaintainability, "if id == \"\" {"),
		},
		{
			Location: review.Location{Path: "README.md", Method: review.MethodFileLevel},
			Content:  "The README does not mention the new --fail-on flag.", Category: review.CategoryDocumentation, Severity: review.SeverityLow,
			Fingerprint: review.Fingerprint("README.md", review.CategoryDocumentation, ""),
		},
		{
			Location:     review.Location{Path: "web/ünï cödé|x.ts", Side: review.SideNew, StartLine: 3, EndLine: 4, InHunk: true, Method: review.MethodHunkNew},
			Content:      "Ελληνικά — 日本語 🚀: this loop re-renders on every keystroke.\n\n- debounce it\n- or memoise",
			ExistingCode: "for (const k of keys) {\n  render(k)", Suggestion: "const render = debounce(renderAll, 50)\n// ```` fences ```\n",
			Category: review.CategoryPerformance, Severity: review.SeverityMedium,
			Fingerprint: review.Fingerprint("web/ünï cödé|x.ts", review.CategoryPerformance, "for (const k of keys) {"),
		},
		{
			Location: review.Location{Path: "cmd/main.go", Side: review.SideNew, StartLine: 7, EndLine: 7, InHunk: true, Method: review.MethodHunkNew},
			Content:  "Terminal \x1b[31mred\x1b[0m and bidi \u202eoverride\u202c text,\ttabs.", Category: review.CategoryStyle, Severity: review.SeverityLow, RuleID: "ocr/go",
			ExistingCode: "x:=1", Suggestion: "x := 1",
			Fingerprint: review.Fingerprint("cmd/main.go", review.CategoryStyle, "x:=1"),
		},
	}
}

// CleanReview is a complete review with no findings.
func CleanReview() *review.Review {
	return &review.Review{
		Tool: "ocr", Version: "v0.3.0", Mode: "commit", Base: "3333333333333333333333333333333333333333", Head: "4444444444444444444444444444444444444444",
		Status: review.StatusComplete,
		Files:  []review.FileCoverage{{Path: "main.go", Status: "modified", Additions: 3, Deletions: 1, Reviewed: true}},
		Usage:  review.Usage{Requests: 2, PromptTokens: 3000, CompletionTokens: 200},
	}
}

// GzipLen is the gzip-compressed size of data.
func GzipLen(t *testing.T, data []byte) int {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Len()
}

// FailedReview reviewed nothing: the provider failed for every file.
func FailedReview() *review.Review {
	return &review.Review{
		Tool: "ocr", Version: "dev", Mode: "workspace", Base: "5555555555555555555555555555555555555555",
		Status: review.StatusFailed,
		Files: []review.FileCoverage{
			{Path: "a.go", Status: "modified", Additions: 1, Reason: "provider_error", Detail: "HTTP 401 from the model provider: check the API key"},
			{Path: "b.go", Status: "added", Additions: 2, Reason: "provider_error"},
		},
		Errors: []string{"review failed: all 2 file review(s) failed"},
	}
}
