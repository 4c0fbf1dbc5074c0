package reportertest

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ocr-ci/ocr/anchor"
	"github.com/ocr-ci/ocr/anchor/udiff"
	"github.com/ocr-ci/ocr/internal/testkit/golden"
	"github.com/ocr-ci/ocr/review"
)

// PostHead and PostBase are the head and base commits of the fixture
// review that the posting tests send.
const (
	PostHead = "2222222222222222222222222222222222222222"
	PostBase = "1111111111111111111111111111111111111111"
)

// PostDiff is a change of n Go files, each with two hunks:
// hunk 1 (old 1–6, new 1–7) deletes old line 3 and adds new lines 3–4;
// hunk 2 (old 40–43, new 41–45) adds new line 42.
func PostDiff(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		p := fmt.Sprintf("pkg/f%d.go", i)
		fmt.Fprintf(&b, "diff --git a/%s b/%s\nindex 1111111..2222222 100644\n--- a/%s\n+++ b/%s\n", p, p, p, p)
		b.WriteString("@@ -1,6 +1,7 @@\n package p\n \n-func old() {}\n+func a() {}\n+func b() {}\n // c1\n // c2\n // c3\n")
		b.WriteString("@@ -40,4 +41,5 @@ func x() {\n // d1\n+// added\n // d2\n // d3\n // d4\n")
	}
	return b.String()
}

// PostChangeSet parses diff into the change set the posters anchor to.
func PostChangeSet(t testing.TB, diff string) *anchor.ChangeSet {
	files, err := udiff.Parse([]byte(diff))
	if err != nil {
		t.Fatal(err)
	}
	return anchor.NewChangeSet(files)
}

// The finding kinds of PostFinding, placed on PostDiff's files.
const (
	KindRangeSuggest = iota // new 3–4, with a suggestion
	KindDeleted             // old line 3 (LEFT)
	KindSingle              // new line 42
	KindAcrossHunks         // new 6–42: degrades to line 6
	KindOutside             // new line 20: file-level
	KindFileLevel           // no line
	KindOtherFile           // a file outside the change: summary
)

// PostFinding is finding i of a kind (KindRangeSuggest…KindOtherFile).
func PostFinding(kind, i int, sev review.Severity) review.Comment {
	path := fmt.Sprintf("pkg/f%d.go", i)
	c := review.Comment{Content: fmt.Sprintf("Finding %d of kind %d.", i, kind), Category: review.CategoryBug, Severity: sev,
		ExistingCode: fmt.Sprintf("code %d %d", kind, i)}
	switch kind {
	case KindRangeSuggest:
		c.Location = review.Location{Path: path, Side: review.SideNew, StartLine: 3, EndLine: 4, InHunk: true}
		c.Suggestion = "func a() {}\nfunc b() { return }\n"
	case KindDeleted:
		c.Location = review.Location{Path: path, Side: review.SideOld, StartLine: 3, EndLine: 3, InHunk: true}
		c.Suggestion = "func old() { /* keep */ }"
	case KindSingle:
		c.Location = review.Location{Path: path, Side: review.SideNew, StartLine: 42, EndLine: 42, InHunk: true}
	case KindAcrossHunks:
		c.Location = review.Location{Path: path, Side: review.SideNew, StartLine: 6, EndLine: 42}
	case KindOutside:
		c.Location = review.Location{Path: path, Side: review.SideNew, StartLine: 20, EndLine: 20}
	case KindFileLevel:
		c.Location = review.Location{Path: path}
	case KindOtherFile:
		c.Location = review.Location{Path: "docs/elsewhere.md", Side: review.SideNew, StartLine: 1, EndLine: 1}
	}
	c.Category = review.Categories[kind%len(review.Categories)]
	c.Fingerprint = review.Fingerprint(c.Path, c.Category, c.ExistingCode)
	return c
}

// InlineReview has n findings that all fit inline (kinds 0–2 over files).
func InlineReview(n int) *review.Review {
	var cs []review.Comment
	sev := []review.Severity{review.SeverityCritical, review.SeverityHigh, review.SeverityMedium, review.SeverityLow}
	for i := 0; i < n; i++ {
		cs = append(cs, PostFinding(i%3, i/3, sev[i*4/max(n, 1)]))
	}
	return PostReview(cs)
}

// PostReview is a complete review of PostDiff with comments cs.
func PostReview(cs []review.Comment) *review.Review {
	return &review.Review{Tool: "ocr", Version: "v0.3.0", Mode: "range", Base: PostBase, Head: PostHead,
		Status: review.StatusComplete, Comments: cs,
		Files: []review.FileCoverage{{Path: "pkg/f0.go", Status: "modified", Reviewed: true},
			{Path: "vendor/x.go", Status: "added", Reason: "vendored"}},
		Usage: review.Usage{Requests: 3, PromptTokens: 1200, CompletionTokens: 300}}
}

// Recorder is a Fallback reporter that counts calls, and a Logf sink.
type Recorder struct {
	mu      sync.Mutex
	Reports int
	Logs    []string
	Sleeps  []time.Duration
}

// Report counts a fallback.
func (r *Recorder) Report(context.Context, *review.Review) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.Reports++
	return nil
}

// Logf records a log line.
func (r *Recorder) Logf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.Logs = append(r.Logs, fmt.Sprintf(format, args...))
}

// Sleep records the wait instead of sleeping.
func (r *Recorder) Sleep(_ context.Context, d time.Duration) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.Sleeps = append(r.Sleeps, d)
	return nil
}

// PostGolden compares got with testdata/post/name, rewriting it under the
// package's -update flag.
func PostGolden(t *testing.T, name, got string) {
	t.Helper()
	golden.CheckString(t, filepath.Join("testdata", "post", name), got)
}
