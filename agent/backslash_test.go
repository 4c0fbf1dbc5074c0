package agent

import (
	"testing"

	"github.com/ocr-ci/ocr/internal/testkit/llmtest"
	"github.com/ocr-ci/ocr/review"
)

// TestCommentOnBackslashName: a file whose name holds `\` (valid in git)
// gets its comments on its own lines, not file-level on a path with the
// backslash read as a separator (nor re-filed from there as another file's).
func TestCommentOnBackslashName(t *testing.T) {
	name := `svc/back\calc.go`
	f := newFixture(t, map[string]string{name: calcBase["svc/calc.go"]}, map[string]string{name: calcHead["svc/calc.go"]})
	f.input.Diffs = map[string]string{name: f.input.Changes.Files()[0].Raw}
	f.input.Files[0].Diff = f.input.Diffs[name]
	comment := llmtest.Tool("code_comment", map[string]any{"path": name, "comments": []map[string]string{{
		"content": "Division by zero panics when b is 0.", "existing_code": "return a / b",
		"category": "bug", "severity": "high"}}})
	out, _ := reviewWith(t, f, Config{},
		llmtest.Script{Match: []string{mainMark}, Answers: []llmtest.Answer{llmtest.Calls(comment, llmtest.Done())}})
	wantReviewed(t, out)
	if len(out.Comments) != 1 {
		t.Fatalf("comments = %+v, want one", out.Comments)
	}
	c := out.Comments[0]
	if c.Path != name || c.StartLine != 5 || c.Side != review.SideNew || c.Method != review.MethodHunkNew {
		t.Errorf("comment at %q %s line %d (%s), want %q new line 5", c.Path, c.Side, c.StartLine, c.Method, name)
	}
}
