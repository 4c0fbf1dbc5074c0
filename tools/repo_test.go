package tools

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/internal/testkit/gitrepo"

	"github.com/ocr-ci/ocr/internal/infra/git"
)

// fixture is the repository every mode's golden test reads.
type fixture struct {
	dir   string // the repository's work tree
	plain string // the same work tree, without .git
	base  string // root commit
	head  string // second commit
	repo  *git.Repo
}

// baseFiles are the root commit's files.
func baseFiles() map[string]string {
	return map[string]string{
		".gitignore":                    "*.log\nbuild/\n",
		"main.go":                       "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"hello\")\n}\n",
		"old.go":                        "package main\n\n// Old is removed in head.\nfunc Old() {}\n",
		"pkg/util/strings.go":           "package util\n\n// Reverse reverses s.\nfunc Reverse(s string) string { return s }\n",
		"pkg/util/strings_test.go":      "package util\n\nimport \"testing\"\n\nfunc TestReverse(t *testing.T) {}\n",
		"Makefile":                      "all:\n\tgo build ./...\n",
		"LICENSE":                       "MIT License\n",
		"README":                        "An extensionless file that file_find skips.\n",
		"docs/guide.md":                 "# Guide\n\nCall Reverse to reverse.\n",
		"src/main/UserService.java":     "class UserService {}\n",
		"src/test/UserServiceTest.java": "class UserServiceTest {}\n",
	}
}

// headFiles are added or changed by the second commit.
func headFiles() map[string]string {
	var big, many strings.Builder
	for i := 1; i <= 1200; i++ {
		fmt.Fprintf(&big, "line %d\n", i)
	}
	for i := 1; i <= 150; i++ {
		fmt.Fprintf(&many, "needle %d\n", i)
	}
	files := map[string]string{
		"main.go":                     "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(greet(\"world\"))\n}\n\nfunc greet(name string) string {\n\treturn \"hello \" + name\n}\n",
		"added.go":                    "package main\n\n// Added in head; calls greet.\nvar _ = greet(\"added\")\n",
		"big.txt":                     big.String(),
		"many.txt":                    many.String(),
		"bin.dat":                     "BIN\x00\x01\x02 needle\n",
		"long.js":                     "var x = \"" + strings.Repeat("a", 5000) + "\"; // needle\n",
		"crlf.txt":                    "one\r\ntwo\r\n",
		"empty.txt":                   "",
		"dir with space/file name.go": "package space // needle\n",
		"ünï/ñame.go":                 "package unicode // Needle\n",
		"a:1/colon:2:.go":             "package colon\n\n// needle in a path with colons\n",
		"pkg/.gitignore":              "*_gen.go\n!keep_gen.go\n",
		"pkg/keep_gen.go":             "package pkg // generated but kept\n",
		"link.go":                     "->main.go",
		"escape.txt":                  "->../outside.txt",
		"abs.txt":                     "->/etc",
	}
	for i := 1; i <= 120; i++ {
		files[fmt.Sprintf("items/item%03d.txt", i)] = "item\n"
	}
	return files
}

// workFiles change the work tree after the second commit: an edit, an
// untracked file, ignored files and a symlink into .git.
func workFiles() map[string]string {
	return map[string]string{
		"main.go":      "package main\n\nimport \"fmt\"\n\n// work tree edit\nfunc main() {\n\tfmt.Println(greet(\"world\"))\n}\n\nfunc greet(name string) string {\n\treturn \"hello \" + name\n}\n",
		"new.go":       "package main\n\n// Untracked; needle.\n",
		"debug.log":    "needle in an ignored file\n",
		"build/out.go": "package build // needle, ignored\n",
		"pkg/x_gen.go": "package pkg // needle, ignored by pkg/.gitignore\n",
		"gitcfg":       "->.git/config",
	}
}

// newFixture builds the repository: root commit, head commit, work tree
// changes, a secret next to the repository, and a plain copy.
func newFixture(t testing.TB) *fixture {
	t.Helper()
	tmp := t.TempDir()
	f := &fixture{dir: filepath.Join(tmp, "repo"), plain: filepath.Join(tmp, "plain")}
	gitrepo.WriteFiles(t, tmp, map[string]string{"outside.txt": "SECRET outside the repository\n"})
	if err := os.Mkdir(f.dir, 0o755); err != nil {
		t.Fatal(err)
	}
	ids := gitrepo.Import(t, f.dir, gitrepo.History{Checkout: true, Commits: []gitrepo.Change{
		{Message: "base", Files: baseFiles()},
		{Message: "head", Files: headFiles(), Remove: []string{"old.go"}},
	}})
	f.base, f.head = ids[0], ids[1]
	gitrepo.WriteFiles(t, f.dir, workFiles())
	for _, files := range []map[string]string{baseFiles(), headFiles(), workFiles()} {
		gitrepo.WriteFiles(t, f.plain, files)
	}
	if err := os.Remove(filepath.Join(f.plain, "old.go")); err != nil {
		t.Fatal(err)
	}
	gitrepo.WriteFiles(t, f.plain, map[string]string{"main.go": workFiles()["main.go"], "gitcfg": "->.git/config"})
	if err := os.MkdirAll(filepath.Join(f.plain, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	gitrepo.WriteFiles(t, f.plain, map[string]string{".git/config": "[credential] token=SECRET\n"})
	f.repo = openRepo(t, f.dir)
	return f
}

// openRepo opens the repository at dir, closed when the test ends.
func openRepo(t testing.TB, dir string) *git.Repo {
	t.Helper()
	repo, err := git.Open(context.Background(), dir, git.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { closeRepo(t, repo) })
	return repo
}

// commitFiles makes a repository in a new temporary directory holding one
// commit of files, and returns its directory, the open Repo and the commit.
func commitFiles(t testing.TB, files map[string]string) (dir string, repo *git.Repo, head string) {
	t.Helper()
	dir = t.TempDir()
	ids := gitrepo.Import(t, dir, gitrepo.History{Checkout: true, Commits: []gitrepo.Change{{Message: "c", Files: files}}})
	return dir, openRepo(t, dir), ids[0]
}

// sources returns the four modes' sources over the fixture.
func (f *fixture) sources() []struct {
	mode string
	src  Source
} {
	return []struct {
		mode string
		src  Source
	}{
		{"range", RefSource(f.repo, f.head)},
		{"commit", RefSource(f.repo, f.base)},
		{"workspace", WorkSource(f.repo)},
		{"plain", DirSource(f.plain)},
	}
}

// closeRepo closes repo at the end of a test; a failure fails the test.
func closeRepo(t testing.TB, repo *git.Repo) {
	t.Helper()
	if err := repo.Close(); err != nil {
		t.Error(err)
	}
}
