package tools

import (
	"context"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/internal/testkit/gitrepo"
)

// TestWalkGitignore: the plain-directory listing honours .gitignore files
// like git does: nested files, negation, directory-only and anchored
// patterns, "**".
func TestWalkGitignore(t *testing.T) {
	dir := t.TempDir()
	gitrepo.WriteFiles(t, dir, map[string]string{
		".gitignore":        "# comment\n*.log\n/root-only.txt\nbuild/\ndocs/**/*.tmp\n\\#hash.txt\n",
		"a.go":              "",
		"x.log":             "",
		"root-only.txt":     "",
		"sub/root-only.txt": "",
		"build/out.go":      "",
		"sub/build":         "", // a file named build: not a directory
		"docs/a/b/c.tmp":    "",
		"docs/a/b/c.md":     "",
		"#hash.txt":         "",
		"pkg/.gitignore":    "*_gen.go\n!keep_gen.go\n",
		"pkg/x_gen.go":      "",
		"pkg/keep_gen.go":   "",
		"pkg/deep/y_gen.go": "",
		"node_modules/m.js": "",
		".git/config":       "",
		"link.go":           "->a.go",
	})
	files, err := walk(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(files, "\n")
	want := strings.Join([]string{".gitignore", "a.go", "docs/a/b/c.md", "link.go", "pkg/.gitignore", "pkg/keep_gen.go", "sub/build", "sub/root-only.txt"}, "\n")
	if got != want {
		t.Errorf("walk =\n%s\nwant\n%s", got, want)
	}
}
