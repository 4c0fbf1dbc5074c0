package sarif_test

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/ocr-ci/ocr/reporters/internal/reportertest"
	"github.com/ocr-ci/ocr/reporters/sarif"
	"github.com/ocr-ci/ocr/review"
)

// edgeReview holds what the fixtures do not: votes (rank 0 and 100),
// invalid UTF-8 and a literal `\ufffd`, "##[" and "::" commands, empty
// and unknown fields, line ranges that run backwards, a catalogue rule
// with more than ten tags, errors, and coverage without a reason.
func edgeReview() *review.Review {
	r := reportertest.FixtureReview()
	r.Tool, r.Version, r.Head = "ocr-edge", "dev build", "abc"
	r.Started = time.Date(2026, 1, 2, 3, 4, 5, 0, time.FixedZone("x", 3600))
	r.Rules = append(r.Rules, review.Rule{ID: "edge", Title: "Edge", Description: " d ", Help: "h ##[x]",
		Tags: []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "a"}})
	r.Errors = []string{"", "no period", "bad \xff byte!"}
	r.Files = append(r.Files, review.FileCoverage{Path: "bad\xfe.go"}, review.FileCoverage{Path: "x.go", Reason: "budget"})
	r.Dropped = 3
	add := func(c review.Comment) { r.Comments = append(r.Comments, c) }
	add(review.Comment{Location: review.Location{Path: "a:b/ü \xff.go", Side: review.SideNew, StartLine: 9, EndLine: 3, InHunk: true},
		Content: "bad \xff\xfe bytes, a literal \\ufffd and a real \ufffd; ##[error]x\n::warning::y [l](u)", Suggestion: "\n",
		Category: "security", Severity: "nonsense", RuleID: "edge", Votes: &review.Votes{Found: 0, Passes: 3},
		Suppressed: &review.Suppression{Reason: "<b>&"}})
	add(review.Comment{Location: review.Location{Path: "p.go", Side: review.SideNew, StartLine: 4, EndLine: 4, InHunk: true, Method: review.MethodFuzzy},
		Content: "  ", Suggestion: "x\xff\n", Category: "", Severity: "", Votes: &review.Votes{Found: 3, Passes: 3}})
	add(review.Comment{Location: review.Location{Path: "q.go", OldPath: "o.go", Side: review.SideOld, StartLine: 2, EndLine: 2},
		Content: "line\u2028sep", Category: "unknown", Severity: review.SeverityHigh, Votes: &review.Votes{Found: 1, Passes: 0}})
	return r
}

// TestSARIFMatchesLegacy: the one-pass encoder writes, byte for byte, the
// log the former go-sarif encode, prune and re-encode wrote, for every
// fixture, hostile and edge text, each reporter option and both limits.
func TestSARIFMatchesLegacy(t *testing.T) {
	t.Parallel()
	cases := reportertest.FixtureCases()
	cases["hostile"] = reportertest.HostileReview()
	cases["edge"] = edgeReview()
	cases["big"] = bigReview(100)
	reporters := []sarif.Reporter{{}, {Category: " /ai/ ", RepositoryURI: "https://github.com/acme/shop"}, {MaxResults: 2}, {MaxGzipBytes: 3000}}
	for name, r := range cases {
		for i, s := range reporters {
			t.Run(fmt.Sprintf("%s/%d", name, i), func(t *testing.T) {
				got, err := s.Log(r)
				if err != nil {
					t.Fatal(err)
				}
				want, err := s.LegacyLog(r)
				if err != nil {
					t.Fatal(err)
				}
				if i := firstDiff(got, want); i >= 0 {
					t.Errorf("logs differ at byte %d of %d/%d:\n got …%s…\nwant …%s…", i, len(got), len(want), around(got, i), around(want, i))
				}
			})
		}
	}
}

// firstDiff is the index of the first differing byte, -1 when a == b.
func firstDiff(a, b []byte) int {
	if bytes.Equal(a, b) {
		return -1
	}
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

func around(data []byte, i int) string {
	return string(data[max(i-80, 0):min(i+80, len(data))])
}
