package tools

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// readCalls reads testdata/calls/<tool>.txt: one JSON argument object per
// line, "#" lines are comments.
func readCalls(t *testing.T, tool string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "calls", tool+".txt"))
	if err != nil {
		t.Fatal(err)
	}
	var calls []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" && !strings.HasPrefix(l, "#") {
			calls = append(calls, l)
		}
	}
	return calls
}

// transcript runs every call and records what the model would receive.
func transcript(t *testing.T, r *Registry, s *Session, tool string, calls []string) string {
	t.Helper()
	var b strings.Builder
	for _, args := range calls {
		s.streak, s.skipped = nil, nil // each call stands alone here
		res := r.Call(context.Background(), PhaseMain, s, tool, args)
		fmt.Fprintf(&b, ">>> %s %s\n", tool, args)
		if res.IsError {
			b.WriteString("[error]\n")
		}
		b.WriteString(res.Text)
		if !strings.HasSuffix(res.Text, "\n") {
			b.WriteByte('\n')
		}
		if res.Done || res.Failed {
			fmt.Fprintf(&b, "[done=%t failed=%t]\n", res.Done, res.Failed)
		}
		if res.Comments != nil {
			c, _ := json.MarshalIndent(res.Comments, "", "  ")
			fmt.Fprintf(&b, "[comments]\n%s\n", c)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// TestGoldenModes runs the source-reading tools in every mode.
func TestGoldenModes(t *testing.T) {
	f := newFixture(t)
	r := Default()
	for _, m := range f.sources() {
		for _, tool := range []string{"file_read", "file_find", "code_search"} {
			t.Run(m.mode+"/"+tool, func(t *testing.T) {
				s := &Session{Source: m.src}
				golden(t, filepath.Join(m.mode, tool), transcript(t, r, s, tool, readCalls(t, tool)))
			})
		}
	}
}

// TestGoldenSessionTools runs the tools that do not read the repository.
func TestGoldenSessionTools(t *testing.T) {
	r := Default()
	s := &Session{File: "src/main.go", Diffs: map[string]string{
		"src/api/handler.go": "--- a/src/api/handler.go\n+++ b/src/api/handler.go\n@@ -10,1 +10,2 @@\n- old line\n+ new line 1\n+ new line 2\n",
		"src/db/queries.go":  "@@ -5,1 +5,1 @@\n- query := \"SELECT *\"\n+ query := \"SELECT id\"",
		"assets/logo.png":    "Binary files a/assets/logo.png and b/assets/logo.png differ\n",
	}}
	for _, tool := range []string{"task_done", "code_comment", "file_read_diff"} {
		t.Run(tool, func(t *testing.T) {
			golden(t, tool, transcript(t, r, s, tool, readCalls(t, tool)))
		})
	}
}
