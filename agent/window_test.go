package agent

import (
	"bytes"
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/internal/testkit/llmtest"
	"github.com/ocr-ci/ocr/review"
	"github.com/ocr-ci/ocr/tools"
)

// windowRun reviews two files of one directory (one group) against the
// oracle behind a server with a context window of window tokens.
func windowRun(t *testing.T, lines map[string]int, window int) (Output, *llmtest.Server, string) {
	t.Helper()
	base, head := map[string]string{}, map[string]string{}
	for p, n := range lines {
		var b, h strings.Builder
		b.WriteString("package calc\n\nfunc F() int {\n\tn := 0\n")
		h.WriteString(b.String())
		for k := range n {
			b.WriteString("\tn += " + strings.Repeat("1", 1+k%7) + "\n")
			h.WriteString("\tn -= " + strings.Repeat("2", 1+k%7) + " // " + p + " " + strconv.Itoa(k) + "\n")
		}
		b.WriteString("\treturn n\n}\n")
		h.WriteString("\treturn n\n}\n")
		base[p], head[p] = b.String(), h.String()
	}
	f := newFixture(t, base, head)
	srv := llmtest.New(t)
	srv.Handle(oracle)
	srv.SetQuirks(llmtest.Quirks{Window: window})
	var progress bytes.Buffer
	out := New(Config{NoPlan: true, Progress: &progress}, client(t, srv, nil), tools.Default()).Review(context.Background(), f.input)
	return out, srv, progress.String()
}

// TestGroupSplitToFitTheWindow: the endpoint refuses the group as over its
// window; ocr learns the window, never sends the group again whole, and
// reviews it as two groups that fit.
func TestGroupSplitToFitTheWindow(t *testing.T) {
	out, srv, progress := windowRun(t, map[string]int{"calc/a.go": 150, "calc/b.go": 150}, 7000)
	if out.Status != review.StatusComplete || len(out.Comments) != 2 {
		t.Fatalf("status %s, %d comments, errors %v\n%s", out.Status, len(out.Comments), out.Errors, progress)
	}
	reqs := srv.Requests()
	whole := 0
	for _, r := range reqs {
		if strings.Contains(r.FirstUser(), `<file path="calc/a.go">`) && strings.Contains(r.FirstUser(), `<file path="calc/b.go">`) {
			whole++
		}
	}
	if whole != 1 || !strings.HasPrefix(reqs[0].Script, "refused") || len(reqs) != 7 {
		t.Errorf("%d requests, %d of the whole group; want the whole group once (refused), then 3 per half", len(reqs), whole)
	}
	for _, want := range []string{"context window is 7000 tokens", "reviewing it as two groups of 1 and 1 file(s)"} {
		if !strings.Contains(progress, want) {
			t.Errorf("progress lacks %q:\n%s", want, progress)
		}
	}
}

// TestSplitHalfTooLarge: a half that still does not fit is not reviewed
// (too_large); the other half is.
func TestSplitHalfTooLarge(t *testing.T) {
	out, _, progress := windowRun(t, map[string]int{"calc/a.go": 20, "calc/b.go": 900}, 7000)
	if out.Status != review.StatusPartial {
		t.Fatalf("status %s, errors %v\n%s", out.Status, out.Errors, progress)
	}
	for _, f := range out.Files {
		want := f.Path == "calc/a.go"
		if f.Reviewed != want || (!want && f.Reason != review.ReasonTooLarge) {
			t.Errorf("%s: reviewed %v, reason %s", f.Path, f.Reviewed, f.Reason)
		}
	}
}
