package git

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// hostileConfig is the global git configuration every test runs under: it
// sets everything that would change the output we parse, so the tests
// prove the package pins it.
const hostileConfig = `[user]
	name = Test
	email = test@example.com
[init]
	defaultBranch = main
[commit]
	gpgsign = false
[core]
	quotepath = true
	pager = false
[color]
	ui = always
	diff = always
	grep = always
[diff]
	noprefix = true
	mnemonicPrefix = true
	renames = false
	context = 10
	interHunkContext = 50
	external = false
	submodule = log
	suppressBlankEmpty = true
	relative = true
	algorithm = patience
[grep]
	column = true
	lineNumber = false
	patternType = perl
	fullName = true
[pager]
	diff = false
`

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "ocr-git-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	cfg := filepath.Join(dir, "gitconfig")
	if err := os.WriteFile(cfg, []byte(hostileConfig), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for k, v := range map[string]string{
		"GIT_CONFIG_GLOBAL": cfg, "GIT_CONFIG_NOSYSTEM": "1",
		"GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "test@example.com",
		"GIT_COMMITTER_NAME": "Test", "GIT_COMMITTER_EMAIL": "test@example.com",
		"GIT_AUTHOR_DATE": "2026-01-01T00:00:00Z", "GIT_COMMITTER_DATE": "2026-01-01T00:00:00Z",
	} {
		if err := os.Setenv(k, v); err != nil {
			panic(err)
		}
	}
	code := m.Run()
	if err := os.RemoveAll(dir); err != nil {
		fmt.Fprintln(os.Stderr, "remove the test configuration:", err)
	}
	os.Exit(code)
}

// gitT runs git in dir for test setup and returns its trimmed output.
func gitT(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.CommandContext(context.Background(), "git", append([]string{"-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// initRepo creates an empty repository.
func initRepo(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	gitT(t, dir, "init", "-q")
	return dir
}

// writeFiles writes files relative to dir, creating directories.
func writeFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// commitFiles writes files, stages everything and commits; it returns the
// commit's SHA.
func commitFiles(t testing.TB, dir, msg string, files map[string]string) string {
	t.Helper()
	writeFiles(t, dir, files)
	gitT(t, dir, "add", "-A")
	gitT(t, dir, "commit", "-q", "--allow-empty", "-m", msg)
	return gitT(t, dir, "rev-parse", "HEAD")
}

// openT opens dir as a Repo closed at the end of the test.
func openT(t testing.TB, dir string) *Repo {
	t.Helper()
	r, err := Open(context.Background(), dir, Options{Logf: t.Logf})
	if err != nil {
		t.Fatalf("Open(%s): %v", dir, err)
	}
	t.Cleanup(func() { closeRepo(t, r) })
	return r
}

// wantErr fails unless errors.Is(err, target).
func wantErr(t *testing.T, err, target error) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Fatalf("error = %v, want %v", err, target)
	}
}

// symlinkT creates a symlink or skips where the platform cannot.
func symlinkT(t testing.TB, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
}

// closeRepo closes repo at the end of a test; a failure fails the test.
func closeRepo(t testing.TB, repo *Repo) {
	t.Helper()
	if err := repo.Close(); err != nil {
		t.Error(err)
	}
}
