package gitlab_test

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/reporters/internal/reportertest"
)

// TestGitLabDiscussionDefusesModelText posts a prompt-injected review
// through the GitLab fake and renders what it received: links to hosts
// other than the instance's and OCR_LINK_ALLOW's are code, a suggestion
// with bidirectional characters is no "suggestion:-1+0" block but plain
// code with them made visible, one too long is left out whole, and every
// marker stays hidden.
func TestGitLabDiscussionDefusesModelText(t *testing.T) {
	diff := reportertest.PostDiff(2)
	f := reportertest.NewGitLabFake(t, diff, false)
	g := reportertest.NewGitLab(t, f, diff, &reportertest.Recorder{})
	g.LinkAllow = []string{reportertest.AllowedHost}
	if err := g.Report(context.Background(), reportertest.HostileReview()); err != nil {
		t.Fatal(err)
	}
	posted := f.Posted()
	if len(posted) != 2 {
		t.Fatalf("%d discussions posted, want 2", len(posted))
	}
	u, err := url.Parse(f.URL)
	if err != nil {
		t.Fatal(err)
	}
	instance := u.Hostname() // the fake's: the instance's own host
	for i, d := range posted {
		reportertest.AssertDefused(t, fmt.Sprint("discussion ", i), d.Body, instance, reportertest.AllowedHost)
	}
	reportertest.AssertDefused(t, "summary", f.SummaryBody(), instance, reportertest.AllowedHost)
	bidi, long := posted[0].Body, posted[1].Body
	if strings.Contains(long, "evil.example/login") {
		bidi, long = long, bidi
	}
	r := reportertest.Render(bidi)
	if len(r.Suggestions()) != 0 || !r.InCode("<U+202E>") || !r.InCode("https://evil.example/login") {
		t.Errorf("the bidi finding: want no suggestion block, the code with <U+202E>, the link as code:\n%s", bidi)
	}
	if r := reportertest.Render(long); len(r.Suggestions()) != 0 || !strings.Contains(long, "Suggestion too long to show") {
		t.Errorf("the long suggestion: want it left out with a note:\n%.400s", long)
	}
}
