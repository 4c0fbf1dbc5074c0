package tools

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/internal/infra/git"
)

// TestFileReadDiffPaging: a diff larger than one page is served in pages
// that together give back exactly the whole answer.
func TestFileReadDiffPaging(t *testing.T) {
	var d strings.Builder
	for i := 0; d.Len() < 2*diffPageChars+100; i++ {
		fmt.Fprintf(&d, "+line %d of a long diff\n", i)
	}
	s := &Session{Diffs: map[string]string{"big.go": d.String(), "small.go": "@@ -1 +1 @@\n-a\n+b\n"}}
	r := Default()
	var all strings.Builder
	for page := 1; ; page++ {
		res := r.Call(context.Background(), PhaseMain, s, "file_read_diff", fmt.Sprintf(`{"path_array":["big.go","small.go"],"page":%d}`, page))
		if res.IsError {
			t.Fatalf("page %d: %s", page, res.Text)
		}
		body, note, more := strings.Cut(res.Text, "Note: Output truncated")
		if len(body) > diffPageChars {
			t.Errorf("page %d has %d characters, cap is %d", page, len(body), diffPageChars)
		}
		all.WriteString(body)
		if !more {
			break
		}
		if want := fmt.Sprintf(`"page": %d for the rest`, page+1); !strings.Contains(note, want) {
			t.Errorf("page %d note %q does not say %s", page, note, want)
		}
		if page > 5 {
			t.Fatal("too many pages")
		}
	}
	want := "==== FILE: big.go ====\n" + d.String() + "\n==== FILE: small.go ====\n@@ -1 +1 @@\n-a\n+b\n\n"
	if all.String() != want {
		t.Errorf("pages do not add up to the whole answer (%d vs %d characters)", all.Len(), len(want))
	}
}

// TestCodeSearchOutputCap: one search cannot flood the context.
func TestCodeSearchOutputCap(t *testing.T) {
	src := mapSource{}
	for i := 0; i < 400; i++ {
		src[fmt.Sprintf("f%03d.go", i)] = strings.Repeat("needle "+strings.Repeat("x", 300)+"\n", 3)
	}
	res := Default().Call(context.Background(), PhaseMain, &Session{Source: src}, "code_search", `{"search_text":"needle"}`)
	if len(res.Text) > searchMaxChars+300 {
		t.Errorf("answer has %d characters, cap is %d", len(res.Text), searchMaxChars)
	}
	if !strings.Contains(res.Text, "Note: Output truncated at 50000 characters: showing") ||
		!strings.Contains(res.Text, "of 1200 matches in") || !strings.Contains(res.Text, "of 400 files. Narrow file_patterns") {
		t.Errorf("missing or wrong truncation note: %q", res.Text[len(res.Text)-200:])
	}
}

// TestFileReadCharCap: 500 very long lines are cut by characters, with a
// note saying where to continue.
func TestFileReadCharCap(t *testing.T) {
	line := strings.Repeat("y", 1500)
	src := mapSource{"wide.txt": strings.Repeat(line+"\n", 600)}
	res := Default().Call(context.Background(), PhaseMain, &Session{Source: src}, "file_read", `{"file_path":"wide.txt"}`)
	if len(res.Text) > readMaxChars+2000 {
		t.Errorf("answer has %d characters", len(res.Text))
	}
	for _, want := range []string{"IS_TRUNCATED: true", "LINE_RANGE: 1-67\n", "Note: Output cut at line 67 to stay under 100000 characters. Continue with start_line 68."} {
		if !strings.Contains(res.Text, want) {
			t.Errorf("answer lacks %q", want)
		}
	}
}

// errSource fails every call with err.
type errSource struct{ err error }

func (e errSource) ReadFile(context.Context, string) ([]byte, error)   { return nil, e.err }
func (e errSource) ListFiles(context.Context) ([]string, error)        { return nil, e.err }
func (e errSource) Grep(context.Context, SearchQuery) ([]Match, error) { return nil, e.err }

// TestSourceFailures: timeouts and git failures become advice, not crashes.
func TestSourceFailures(t *testing.T) {
	timeout := fmt.Errorf("could not search: %w", &git.Error{Args: []string{"grep"}, ExitCode: -1, Err: git.ErrTimeout})
	failed := fmt.Errorf("could not search: %w", &git.Error{Args: []string{"grep"}, ExitCode: 128, Stderr: "fatal: bad pathspec magic"})
	for _, tc := range []struct {
		err        error
		tool, args string
		want       string
	}{
		{timeout, "code_search", `{"search_text":"x"}`, "Error: git grep timed out after 10s; try narrowing file_patterns to a more specific path"},
		{context.DeadlineExceeded, "code_search", `{"search_text":"x"}`, "Error: git grep timed out after 10s"},
		{failed, "code_search", `{"search_text":"x"}`, "Error: git grep failed: fatal: bad pathspec magic"},
		{timeout, "file_find", `{"query_name":"x"}`, "Error: could not list the repository's files:"},
		{timeout, "file_read", `{"file_path":"x"}`, "Error: could not read x:"},
	} {
		res := Default().Call(context.Background(), PhaseMain, &Session{Source: errSource{tc.err}}, tc.tool, tc.args)
		if !res.IsError || !strings.HasPrefix(res.Text, tc.want) {
			t.Errorf("%s with %v: got %q, want prefix %q", tc.tool, tc.err, res.Text, tc.want)
		}
	}
}

// TestFileFindCap: at most 100 paths, in list order.
func TestFileFindCap(t *testing.T) {
	src := mapSource{}
	for i := 0; i < 150; i++ {
		src[fmt.Sprintf("dir/file%03d.go", i)] = ""
	}
	res := Default().Call(context.Background(), PhaseMain, &Session{Source: src}, "file_find", `{"query_name":"FILE"}`)
	lines := strings.Split(res.Text, "\n")
	if len(lines) != 100 || lines[0] != "dir/file000.go" || lines[99] != "dir/file099.go" {
		t.Errorf("got %d lines, first %q last %q", len(lines), lines[0], lines[len(lines)-1])
	}
}
