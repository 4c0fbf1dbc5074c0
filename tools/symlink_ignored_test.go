package tools

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/internal/testkit/gitrepo"
)

// A committed symlink to an ignored file (a .env that CI wrote from its
// secrets) must not let the model read the ignored file: only listed files
// can be read, and that holds for where a symlink ends up too.
func TestSymlinkToIgnoredFileIsNotRead(t *testing.T) {
	dir, repo, _ := commitFiles(t, map[string]string{
		".gitignore":     ".env\nsecrets/\n",
		"notes.txt":      "->.env",
		"deep.txt":       "->secrets/token",
		"readme.txt":     "->docs/readme.md",
		"docs/readme.md": "# docs\n",
	})
	gitrepo.WriteFiles(t, dir, map[string]string{".env": "API_TOKEN=SECRET\n", "secrets/token": "SECRET\n"})
	plain := filepath.Join(t.TempDir(), "plain")
	if err := os.CopyFS(plain, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(plain, ".git")); err != nil {
		t.Fatal(err)
	}
	for _, s := range []struct {
		mode string
		src  Source
	}{{"workspace", WorkSource(repo)}, {"plain", DirSource(plain)}} {
		for _, p := range []string{"notes.txt", "deep.txt"} {
			data, err := s.src.ReadFile(context.Background(), p)
			if err == nil || strings.Contains(string(data), "SECRET") {
				t.Errorf("%s: ReadFile(%s) = %q, %v; want an error", s.mode, p, data, err)
			}
		}
		if data, err := s.src.ReadFile(context.Background(), "readme.txt"); err != nil || string(data) != "# docs\n" {
			t.Errorf("%s: ReadFile(readme.txt) through a link to a listed file = %q, %v", s.mode, data, err)
		}
	}
}
