package udiff

import (
	"fmt"
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
	gitrepo.Import(t, dir, testHistory())
	return dir
}
