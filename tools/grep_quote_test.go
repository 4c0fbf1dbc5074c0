package tools

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseGrepQuotedPath(t *testing.T) {
	out := "REF:\"dir/a\\\"b.go\":3:x := \"y\"\n" +
		"\"tab\\tname\\303\\251.txt\":1:tab\n" +
		"\"back\\\\slash.go\":2:var B = 2\n"
	got := parseGrep([]byte(out), "REF:", nil)
	want := []Match{
		{Path: `dir/a"b.go`, Line: 3, Text: `x := "y"`},
		{Path: "tab\tnameé.txt", Line: 1, Text: "tab"},
		{Path: `back\slash.go`, Line: 2, Text: "var B = 2"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("parseGrep (-want +got):\n%s", diff)
	}
}

// TestCodeSearchQuotedNames: git grep C-quotes names with a quote, a
// backslash or a tab; code_search must give the model the real path, which
// file_read then opens (and which a secret filter can recognise).
func TestCodeSearchQuotedNames(t *testing.T) {
	names := []string{`q"dir/a.go`, `back\slash.go`, "tab\tname.go"}
	files := map[string]string{}
	for _, n := range names {
		files[n] = "package p\n\nvar Needle = 1\n"
	}
	_, repo, head := commitFiles(t, files)
	for mode, src := range map[string]Source{"ref": RefSource(repo, head), "work": WorkSource(repo)} {
		s := &Session{Source: src}
		res := Default().Call(context.Background(), PhaseMain, s, "code_search", `{"search_text":"Needle"}`)
		for _, n := range names {
			if !strings.Contains(res.Text, "File: "+n+"\n") {
				t.Errorf("%s: code_search does not name %q:\n%s", mode, n, res.Text)
			}
		}
		if strings.Contains(res.Text, `File: "`) {
			t.Errorf("%s: code_search shows a quoted path:\n%s", mode, res.Text)
		}
	}
}

// TestDiffPageNoteOnItsOwnLine: a page that cuts a long (minified) line
// still ends before the note, so the note is not glued to the code.
func TestDiffPageNoteOnItsOwnLine(t *testing.T) {
	long := "+" + strings.Repeat("function f(x){return x};", 2*diffPageChars/24) + "\n"
	s := &Session{Diffs: map[string]string{"app.min.js": "@@ -0,0 +1 @@\n" + long}}
	res := Default().Call(context.Background(), PhaseMain, s, "file_read_diff", `{"path_array":["app.min.js"],"page":2}`)
	if !strings.Contains(res.Text, "\nNote: Output truncated (page 2 of") {
		t.Errorf("the note does not start a line:\n%s", res.Text[max(0, len(res.Text)-300):])
	}
}
