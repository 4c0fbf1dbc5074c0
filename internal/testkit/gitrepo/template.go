package gitrepo

import (
	"os"
	"sync"
	"testing"
)

// Template is a repository built once per test binary and copied into each
// test that asks for it: a test gets its own real repository (it may
// commit, check out and write reports in it) without paying the git
// processes that built it again. The copy is plain file copying; the
// index's cached file times differ, which git checks by content.
//
// A package using Template removes it after its tests:
//
//	func TestMain(m *testing.M) { code := m.Run(); repo.Remove(); os.Exit(code) }
type Template struct {
	build func(t testing.TB, dir string)
	ids   []string // what Import returned, for a HistoryTemplate

	once   sync.Once
	dir    string
	failed bool
}

// NewTemplate returns a Template that build makes, in an empty directory
// (build runs Run "init" itself), the first time a test copies it. Symlinks
// in the work tree are not supported (os.CopyFS refuses them).
func NewTemplate(build func(t testing.TB, dir string)) *Template {
	return &Template{build: build}
}

// HistoryTemplate returns a Template that Import builds from h (with
// h.Checkout, a copy is a repository to work in). IDs gives the commits'
// ids.
func HistoryTemplate(h History) *Template {
	tp := &Template{}
	tp.build = func(t testing.TB, dir string) { tp.ids = Import(t, dir, h) }
	return tp
}

// IDs returns the ids Import gave a HistoryTemplate's commits, in the
// history's order, once a Copy has built it (nil for other templates).
func (tp *Template) IDs() []string { return tp.ids }

// Copy returns a new t.TempDir() holding a copy of the repository.
func (tp *Template) Copy(t testing.TB) string {
	t.Helper()
	tp.once.Do(func() { tp.make(t) })
	if tp.failed {
		t.Fatal("gitrepo: the template repository failed to build (see the first test that used it)")
	}
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(tp.dir)); err != nil {
		t.Fatalf("gitrepo: copying the template repository: %v", err)
	}
	return dir
}

// make builds the repository; a build that fails the test leaves the
// Template failed for every later Copy.
func (tp *Template) make(t testing.TB) {
	t.Helper()
	tp.failed = true
	dir, err := os.MkdirTemp("", "ocr-gitrepo-*")
	if err != nil {
		t.Fatalf("gitrepo: %v", err)
	}
	tp.dir = dir
	tp.build(t, dir)
	tp.failed = false
}

// Remove deletes the built repository (TestMain, after the tests).
func (tp *Template) Remove() {
	if tp.dir != "" {
		_ = os.RemoveAll(tp.dir)
	}
}
