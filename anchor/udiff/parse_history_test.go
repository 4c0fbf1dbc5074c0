package udiff

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/internal/testkit/gitrepo"
)

// TestParseHistory checks the parser against real git over a repository
// with varied changes, with core.quotepath both off and on.
func TestParseHistory(t *testing.T) {
	dir := buildHistory(t)
	commits := commitsOf(t, dir, "HEAD", 100)
	if len(commits) < 15 {
		t.Fatalf("test repository has %d commits, want at least 15", len(commits))
	}
	for _, quote := range []bool{false, true} {
		t.Run(fmt.Sprintf("quotepath=%v", quote), func(t *testing.T) {
			checkHistory(t, dir, commits, quote)
		})
	}
}

// step is one commit of the test history: git commands to run first, files
// to write (nil content deletes), files to make executable, and whether to
// skip "git add -A" (which would drop a gitlink without a checkout).
type step struct {
	git   [][]string
	write map[string]*string
	exec  []string
	noAdd bool
}

func text(s string) *string { return &s }

// numbered returns n lines "<prefix> <i>" joined with eol.
func numbered(prefix string, n int, eol string) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "%s %d%s", prefix, i, eol)
	}
	return b.String()
}

// buildHistory creates the test repository in a temporary directory.
func buildHistory(t *testing.T) string {
	dir := t.TempDir()
	gitrepo.Output(t, dir, "init", "-q")
	for i, s := range historySteps() {
		for _, args := range s.git {
			gitrepo.Output(t, dir, args...)
		}
		for name, content := range s.write {
			path := filepath.Join(dir, filepath.FromSlash(name))
			if content == nil {
				if err := os.Remove(path); err != nil {
					t.Fatal(err)
				}
				continue
			}
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(*content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		for _, name := range s.exec {
			if err := os.Chmod(filepath.Join(dir, name), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		if !s.noAdd {
			gitrepo.Output(t, dir, "add", "-A")
		}
		gitrepo.Output(t, dir, "commit", "-q", "--allow-empty", "-m", fmt.Sprintf("step %d", i))
	}
	return dir
}
