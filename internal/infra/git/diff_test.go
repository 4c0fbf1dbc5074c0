package git

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// numbered returns n lines "line 1".."line n", with line k replaced by
// repl[k].
func numbered(n int, repl map[int]string) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		if s, ok := repl[i]; ok {
			b.WriteString(s + "\n")
			continue
		}
		b.WriteString("line " + strings.Repeat("x", i%7) + " " + string(rune('a'+i%26)) + "\n")
	}
	return b.String()
}

// trickyNames are file names that need care: spaces, tabs, quotes,
// non-ASCII, a leading dash.
var trickyNames = []string{"my file.txt", "tab\there.txt", "quo\"te.txt", "ünï/çödé.txt", "-dash.txt"}

func TestDiff(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := initRepo(t)
	files := map[string]string{"a.txt": numbered(30, nil), "bin.dat": "a\x00b", "old.go": numbered(20, nil)}
	for _, n := range trickyNames {
		files[n] = "one\n"
	}
	c1 := commitFiles(t, dir, "one", files)
	gitT(t, dir, "mv", "old.go", "new.go")
	files = map[string]string{"a.txt": numbered(30, map[int]string{5: "five", 14: "fourteen"}),
		"bin.dat": "a\x00c", "new.go": numbered(20, map[int]string{10: "ten"})}
	for _, n := range trickyNames {
		files[n] = "two\n"
	}
	c2 := commitFiles(t, dir, "two", files)
	r := openT(t, dir)

	d, err := r.Diff(ctx, c1, c2)
	if err != nil {
		t.Fatal(err)
	}
	s := string(d)
	for _, want := range []string{
		"diff --git a/a.txt b/a.txt\n",
		"@@ -2,7 +2,7 @@",   // -U3 although diff.context=10
		"@@ -11,7 +11,7 @@", // a second hunk although diff.interHunkContext=50
		"rename from old.go\nrename to new.go\n",
		"Binary files a/bin.dat and b/bin.dat differ\n",
		"diff --git a/my file.txt b/my file.txt\n",
		"diff --git \"a/tab\\there.txt\" \"b/tab\\there.txt\"\n",
		"diff --git \"a/quo\\\"te.txt\" \"b/quo\\\"te.txt\"\n",
		"diff --git a/ünï/çödé.txt b/ünï/çödé.txt\n",
		"diff --git a/-dash.txt b/-dash.txt\n",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("diff lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "\x1b[") {
		t.Errorf("diff is coloured:\n%q", s)
	}

	root, err := r.Diff(ctx, EmptyTree, c1)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(root, []byte("new file mode 100644\nindex 0000000..")) || !bytes.Contains(root, []byte("--- /dev/null\n+++ b/old.go\n")) {
		t.Errorf("root diff:\n%s", root)
	}

	out := filepath.Join(t.TempDir(), "out")
	for _, pair := range [][2]string{{"-x", c2}, {c1, "--output=" + out}, {c1, ""}} {
		_, err := r.Diff(ctx, pair[0], pair[1])
		wantErr(t, err, ErrBadRef)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("--output was obeyed")
	}
	if _, err := r.Diff(ctx, c1, "nope"); err == nil || !strings.Contains(err.Error(), "nope") {
		t.Errorf("Diff(unknown) = %v", err)
	}
}

// noIndexDiff is git's own rendering of an untracked file as added.
func noIndexDiff(t *testing.T, dir, name string) string {
	t.Helper()
	cmd := exec.CommandContext(context.Background(), "git", "-c", "core.quotepath=false", "diff", "--no-index", "--no-color", "--no-ext-diff",
		"--src-prefix=a/", "--dst-prefix=b/", "--", "/dev/null", name)
	cmd.Dir = dir
	out, err := cmd.Output()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Fatalf("git diff --no-index %s: %v", name, err)
	}
	return string(out)
}

func TestWorkspaceDiffUnborn(t *testing.T) {
	t.Parallel()
	dir := initRepo(t)
	writeFiles(t, dir, map[string]string{"staged.txt": "staged\n"})
	gitT(t, dir, "add", "staged.txt")
	untracked := map[string]string{
		".gitignore": "*.log\n", "debug.log": "ignored\n", "empty": "", "bin.dat": "\x00\x01",
		".gitattributes": "*.svg binary\n*.nul diff\n", "a.svg": "<svg/>\n", "text.nul": "a\x00b\n",
		"no-eol.txt": "a\nb", "crlf.txt": "a\r\nb\r\n", "one line": "x\n",
	}
	for _, n := range trickyNames {
		untracked[n] = "new " + n + "\n"
	}
	writeFiles(t, dir, untracked)
	writeFiles(t, dir, map[string]string{"staged.txt": "staged\nmodified\n"})
	if err := os.Chmod(filepath.Join(dir, "one line"), 0o755); err != nil {
		t.Fatal(err)
	}
	symlinkT(t, "/etc/passwd", filepath.Join(dir, "link"))
	gitT(t, dir, "init", "-q", "nested")

	r := openT(t, dir)
	d, err := r.WorkspaceDiff(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	s := string(d)
	if !strings.Contains(s, "+++ b/staged.txt\n@@ -0,0 +1,2 @@\n+staged\n+modified\n") {
		t.Errorf("staged file not diffed with its work-tree content:\n%s", s)
	}
	delete(untracked, "debug.log")
	for name := range untracked {
		if want := noIndexDiff(t, dir, name); !strings.Contains(s, want) {
			t.Errorf("untracked %q: want\n%q\nin\n%q", name, want, s)
		}
	}
	if want := noIndexDiff(t, dir, "link"); !strings.Contains(s, want) {
		t.Errorf("untracked symlink: want\n%s\nin\n%s", want, s)
	}
	for _, absent := range []string{"debug.log", "nested"} {
		if strings.Contains(s, absent) {
			t.Errorf("workspace diff shows %s:\n%s", absent, s)
		}
	}
}

func TestWorkspaceDiffWithHead(t *testing.T) {
	t.Parallel()
	dir := initRepo(t)
	commitFiles(t, dir, "one", map[string]string{"keep.txt": "1\n", "gone.txt": "g\n", "mod.txt": "a\n"})
	writeFiles(t, dir, map[string]string{"mod.txt": "b\n", "new.txt": "n\n"})
	if err := os.Remove(filepath.Join(dir, "gone.txt")); err != nil {
		t.Fatal(err)
	}
	r := openT(t, dir)
	d, err := r.WorkspaceDiff(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	s := string(d)
	for _, want := range []string{"deleted file mode 100644", "-a\n+b\n", "+++ b/new.txt\n@@ -0,0 +1 @@\n+n\n"} {
		if !strings.Contains(s, want) {
			t.Errorf("workspace diff lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "keep.txt") {
		t.Errorf("unchanged file in diff:\n%s", s)
	}
}

func TestQuotePath(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"plain/ünï.go": "plain/ünï.go", "a b": "a b", "t\tb": `"t\tb"`, `q"`: `"q\""`,
		`back\slash`: `"back\\slash"`, "bell\a\x01\x7f": `"bell\a\001\177"`, "nl\n": `"nl\n"`,
	} {
		if got := quotePath(in); got != want {
			t.Errorf("quotePath(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestSHA256Repository(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	gitT(t, dir, "init", "-q", "--object-format=sha256")
	writeFiles(t, dir, map[string]string{"a.txt": "a\n"})
	gitT(t, dir, "add", "a.txt")
	r := openT(t, dir)
	d, err := r.WorkspaceDiff(ctx)
	if err != nil || !bytes.Contains(d, []byte("+++ b/a.txt\n@@ -0,0 +1 @@\n+a\n")) {
		t.Fatalf("WorkspaceDiff = %q, %v", d, err)
	}
	c := commitFiles(t, dir, "one", nil)
	d, err = r.Diff(ctx, EmptyTree, c)
	if err != nil || !bytes.Contains(d, []byte("new file mode 100644")) {
		t.Errorf("Diff(EmptyTree) = %q, %v", d, err)
	}
	if got, err := r.ReadFile(ctx, c, "a.txt"); err != nil || string(got) != "a\n" {
		t.Errorf("ReadFile = %q, %v", got, err)
	}
	writeFiles(t, dir, map[string]string{"new.txt": "n\n"})
	d, err = r.WorkspaceDiff(ctx)
	if want := noIndexDiff(t, dir, "new.txt"); err != nil || !strings.Contains(string(d), want) {
		t.Errorf("WorkspaceDiff = %q, %v; want %q in it", d, err, want)
	}
}

func TestDiffTreatsHugeFilesAsBinary(t *testing.T) {
	t.Parallel()
	dir := initRepo(t)
	c1 := commitFiles(t, dir, "empty", nil)
	big := strings.Repeat("a line of text\n", MaxDiffFileSize/15+1000)
	c2 := commitFiles(t, dir, "huge", map[string]string{"huge.txt": big})
	d, err := openT(t, dir).DiffText(context.Background(), c1, c2)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(d, "Binary files /dev/null and b/huge.txt differ") || len(d) > 4096 {
		t.Errorf("a %d MiB text file must be reported as binary, got %d bytes of diff", len(big)>>20, len(d))
	}
}
