package github_test

import (
	"context"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/reporters/internal/reportertest"
)

// TestGitHubReviewDefusesModelText posts a prompt-injected review through
// the GitHub fake and renders what it received: links to hosts other
// than the server's and OCR_LINK_ALLOW's are code, a suggestion with
// bidirectional characters is plain code with them made visible, one too
// long for a comment is left out whole, and every marker stays hidden.
func TestGitHubReviewDefusesModelText(t *testing.T) {
	diff := reportertest.PostDiff(2)
	f := reportertest.NewGitHubFake(t, diff, reportertest.PostHead)
	g := reportertest.NewGitHubReview(t, f, diff, &reportertest.Recorder{})
	g.LinkAllow = []string{reportertest.AllowedHost}
	if err := g.Report(context.Background(), reportertest.HostileReview()); err != nil {
		t.Fatal(err)
	}
	cs := f.Comments()
	if len(cs) != 2 {
		t.Fatalf("%d comments posted, want 2", len(cs))
	}
	bodies := map[string]string{cs[0].Path: cs[0].Body, cs[1].Path: cs[1].Body, "summary": f.IssueComments()[0].Body}
	for what, body := range bodies {
		reportertest.AssertDefused(t, what, body, "github.com", reportertest.AllowedHost)
	}
	checkDefusedBodies(t, bodies["pkg/f0.go"], bodies["pkg/f1.go"], bodies["summary"])
}

// checkDefusedBodies checks what each hostile finding became.
func checkDefusedBodies(t *testing.T, bidi, long, summary string) {
	t.Helper()
	r := reportertest.Render(bidi)
	if len(r.Suggestions()) != 0 || !r.InCode("<U+202E>") || !r.InCode("https://evil.example/login") {
		t.Errorf("the bidi finding: want no suggestion block, the code with <U+202E>, the link as code:\n%s", bidi)
	}
	if want := "https://docs.example.org/guide"; len(r.Links) != 1 || r.Links[0] != want {
		t.Errorf("the bidi finding links %q, want only %q", r.Links, want)
	}
	if r := reportertest.Render(long); len(r.Suggestions()) != 0 || !strings.Contains(long, "Suggestion too long to show") {
		t.Errorf("the long suggestion: want it left out with a note:\n%.400s", long)
	}
	if r := reportertest.Render(summary); !r.InCode("https://evil.example/ref") {
		t.Errorf("the summary does not show the unplaced finding's link as code:\n%s", summary)
	}
}
