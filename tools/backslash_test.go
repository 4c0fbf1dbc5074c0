package tools

import (
	"context"
	"strings"
	"testing"
)

// TestBackslashInPath: `\` is a valid character in a git path. A file named
// with one must be readable and commentable under its real name; reading
// `\` as a separator is only the fallback (and never escapes the root).
func TestBackslashInPath(t *testing.T) {
	name := `dir/back\slash.go`
	_, repo, head := commitFiles(t, map[string]string{name: "package p\n\nvar B = 2\n", "dir/back/slash.go": "package other\n"})
	s := &Session{Source: RefSource(repo, head), File: name,
		Diffs: map[string]string{name: "@@ -0,0 +1,3 @@\n+package p\n+\n+var B = 2\n"}}
	call := func(tool, args string) Result {
		return Default().Call(context.Background(), PhaseMain, s, tool, args)
	}
	if res := call("file_read", `{"file_path":"dir/back\\slash.go"}`); !strings.Contains(res.Text, "3|var B = 2") {
		t.Errorf("file_read of the backslash name:\n%s", res.Text)
	}
	if res := call("file_read", `{"file_path":"dir\\back\\slash.go"}`); !strings.Contains(res.Text, "1|package other") {
		t.Errorf("file_read with backslashes as separators:\n%s", res.Text)
	}
	if res := call("file_read", `{"file_path":"dir\\..\\..\\etc\\passwd"}`); !res.IsError {
		t.Errorf("file_read climbing with backslashes: %s", res.Text)
	}
	if res := call("file_read_diff", `{"path_array":["dir/back\\slash.go"]}`); !strings.Contains(res.Text, "==== FILE: "+name+" ====") {
		t.Errorf("file_read_diff:\n%s", res.Text)
	}
	for _, args := range []string{
		`{"comments":[{"content":"c","existing_code":"var B = 2"}]}`,
		`{"path":"dir/back\\slash.go","comments":[{"content":"c","existing_code":"var B = 2"}]}`,
		`{"comments":[{"path":"dir/back\\slash.go","content":"c","existing_code":"var B = 2"}]}`,
	} {
		res := call("code_comment", args)
		if len(res.Comments) != 1 || res.Comments[0].Path != name {
			t.Errorf("code_comment %s: %+v", args, res.Comments)
		}
	}
}
