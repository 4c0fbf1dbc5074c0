package github_test

import (
	"context"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/reporters/internal/reportertest"
	"github.com/ocr-ci/ocr/review"
)

// TestGitHubReviewCarriedKeepsItsThread: after a rebase moves a finding's
// line, GitHub shows its thread as outdated (line null). A finding the
// run carried forward (review.Comment.Carried) keeps that thread and is
// not posted again; a finding of a fresh review with the same
// fingerprint is posted on the new line, as before.
func TestGitHubReviewCarriedKeepsItsThread(t *testing.T) {
	diff := reportertest.PostDiff(1)
	f := reportertest.NewGitHubFake(t, diff, reportertest.PostHead)
	rec := &reportertest.Recorder{}
	g := reportertest.NewGitHubReview(t, f, diff, rec)
	first := reportertest.PostFinding(reportertest.KindSingle, 0, review.SeverityHigh)
	if err := g.Report(context.Background(), reportertest.PostReview([]review.Comment{first})); err != nil {
		t.Fatal(err)
	}
	// The rebase: three lines above the second hunk, so "// added" is at 45.
	moved := strings.Replace(diff, "@@ -40,4 +41,5 @@", "@@ -43,4 +44,5 @@", 1)
	const rebased = "3333333333333333333333333333333333333333"
	f.Push(rebased, moved)
	if c := f.Comments()[0]; c.Line != nil {
		t.Fatalf("the fake left the moved comment current (line %d): the test needs it outdated", *c.Line)
	}
	for _, tc := range []struct {
		name    string
		carried bool
		reviews int
	}{{"carried", true, 1}, {"fresh", false, 2}} {
		t.Run(tc.name, func(t *testing.T) {
			g := reportertest.NewGitHubReview(t, f, moved, rec)
			g.HeadSHA = rebased
			c := first
			c.StartLine, c.EndLine, c.Carried = 45, 45, tc.carried
			r := reportertest.PostReview([]review.Comment{c})
			r.Head = rebased
			if err := g.Report(context.Background(), r); err != nil {
				t.Fatal(err)
			}
			if n := len(f.Reviews()); n != tc.reviews {
				t.Errorf("%d reviews posted in all, want %d", n, tc.reviews)
			}
		})
	}
}
