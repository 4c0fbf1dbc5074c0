package tools

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRefThatLooksLikeAnOption: a ref git could take for an option never
// reaches git; every tool answers with an error instead.
func TestRefThatLooksLikeAnOption(t *testing.T) {
	f := newFixture(t)
	marker := filepath.Join(t.TempDir(), "written")
	s := &Session{Source: RefSource(f.repo, "--output="+marker)}
	r := Default()
	for _, c := range []struct{ tool, args string }{
		{"file_read", `{"file_path":"main.go"}`},
		{"file_find", `{"query_name":"main"}`},
		{"code_search", `{"search_text":"main"}`},
	} {
		res := r.Call(context.Background(), PhaseMain, s, c.tool, c.args)
		if !res.IsError || !strings.Contains(res.Text, "ref") {
			t.Errorf("%s with an option-like ref: %q", c.tool, res.Text)
		}
		if testing.Verbose() {
			t.Log(c.tool, res.Text)
		}
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("git wrote the file named by the option-like ref")
	}
}
