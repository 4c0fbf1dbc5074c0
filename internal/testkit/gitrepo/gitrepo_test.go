package gitrepo

import (
	"os"
	"path/filepath"
	"testing"
)

// TestCommitIDIsGits: the id Commit reads from the repository's files is
// the one git names, on a branch, on a branch with a slash and detached.
func TestCommitIDIsGits(t *testing.T) {
	dir := Init(t)
	WriteFiles(t, dir, map[string]string{"a.txt": "a\n"})
	for _, step := range [][]string{nil, {"checkout", "-q", "-b", "topic/x"}, {"checkout", "-q", "--detach"}} {
		if step != nil {
			Run(t, dir, step...)
		}
		got := Commit(t, dir, "step")
		if want := Run(t, dir, "rev-parse", "HEAD"); got != want {
			t.Errorf("after %v: Commit returned %q, git says HEAD is %q", step, got, want)
		}
	}
}

// TestInitHasNoTemplateFiles: the repository Init makes has no sample
// hooks (the files it exists to avoid).
func TestInitHasNoTemplateFiles(t *testing.T) {
	dir := Init(t)
	if entries, err := os.ReadDir(filepath.Join(dir, ".git", "hooks")); err == nil && len(entries) > 0 {
		t.Errorf(".git/hooks holds %d files, want none", len(entries))
	}
}

// TestTemplateCopiesAreIndependent: every copy is a whole repository of
// its own; what one test commits is not in another's copy, and the build
// runs once.
func TestTemplateCopiesAreIndependent(t *testing.T) {
	builds := 0
	tp := NewTemplate(func(t testing.TB, dir string) {
		builds++
		Run(t, dir, "init", "-q", "--template=")
		WriteFiles(t, dir, map[string]string{"a.txt": "a\n"})
		Commit(t, dir, "root")
	})
	defer tp.Remove()
	one, two := tp.Copy(t), tp.Copy(t)
	root := Run(t, one, "rev-parse", "HEAD")
	WriteFiles(t, one, map[string]string{"b.txt": "b\n"})
	Commit(t, one, "second")
	if got := Run(t, two, "rev-parse", "HEAD"); got != root {
		t.Errorf("the second copy's HEAD is %s, want the template's %s", got, root)
	}
	if status := Run(t, two, "status", "--porcelain"); status != "" {
		t.Errorf("a fresh copy's work tree is not clean:\n%s", status)
	}
	if builds != 1 {
		t.Errorf("the template was built %d times, want 1", builds)
	}
}
