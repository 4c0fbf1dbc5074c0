// Package gitrepo is the test kit's one helper for real git repositories in
// t.TempDir(): git run with a fixed identity, without the machine's user or
// system configuration, without signing or line-ending conversion, the
// default branch main.
package gitrepo

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// env isolates a test's git from the machine and fixes who commits.
var env = []string{
	"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=" + os.DevNull,
	"GIT_AUTHOR_NAME=Test", "GIT_AUTHOR_EMAIL=test@example.com",
	"GIT_COMMITTER_NAME=Test", "GIT_COMMITTER_EMAIL=test@example.com",
}

// fixedDates make commit ids the same on every run.
var fixedDates = []string{"GIT_AUTHOR_DATE=2026-01-01T00:00:00Z", "GIT_COMMITTER_DATE=2026-01-01T00:00:00Z"}

// config is passed to every git run.
var config = []string{"-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false", "-c", "core.autocrlf=false", "-c", "core.symlinks=true"}

// Run runs git in dir and returns its trimmed output (stdout and stderr);
// a failure fails the test with git's message.
func Run(t testing.TB, dir string, args ...string) string {
	t.Helper()
	return strings.TrimSpace(string(run(t, dir, nil, true, args)))
}

// RunFixed is Run with the author and committer dates fixed, so that the
// commit ids are the same on every run.
func RunFixed(t testing.TB, dir string, args ...string) string {
	t.Helper()
	return strings.TrimSpace(string(run(t, dir, fixedDates, true, args)))
}

// Output runs git in dir with fixed dates and returns its standard output
// as it is (a diff keeps its last newline); stderr goes to the failure.
func Output(t testing.TB, dir string, args ...string) []byte {
	t.Helper()
	return run(t, dir, fixedDates, false, args)
}

func run(t testing.TB, dir string, extra []string, combined bool, args []string) []byte {
	t.Helper()
	cmd := exec.CommandContext(context.Background(), "git", append(append([]string{}, config...), args...)...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), env...), extra...)
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if combined {
		cmd.Stderr = &out
	}
	if err := cmd.Run(); err != nil {
		t.Fatalf("git %s: %v\n%s%s", strings.Join(args, " "), err, out.Bytes(), stderr.Bytes())
	}
	return out.Bytes()
}

// Init makes an empty repository in a new t.TempDir() and returns its
// directory. It has no template files (sample hooks, description): a
// test repository needs none, and each is a file to create and remove.
func Init(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	Run(t, dir, "init", "-q", "--template=")
	return dir
}

// WriteFiles writes files (path relative to dir → content), creating
// directories and replacing what was there; a content starting with "->"
// makes a symlink to the rest.
func WriteFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for p, content := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Remove(full); err != nil && !errors.Is(err, fs.ErrNotExist) {
			t.Fatal(err)
		}
		var err error
		if target, ok := strings.CutPrefix(content, "->"); ok {
			err = os.Symlink(target, full)
		} else {
			err = os.WriteFile(full, []byte(content), 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

// Commit stages everything in dir, commits it with message msg (an empty
// commit too) and returns the new commit's id.
func Commit(t testing.TB, dir, msg string) string {
	t.Helper()
	Run(t, dir, "add", "-A")
	Run(t, dir, "commit", "-q", "--allow-empty", "-m", msg)
	if id, ok := headID(dir); ok {
		return id
	}
	return Run(t, dir, "rev-parse", "HEAD")
}

// headID reads the commit HEAD names from the repository's files, as git
// wrote them a moment ago: a branch's loose ref, or a detached HEAD. It
// reports false for anything else (packed refs, reftable, a .git file),
// which Commit then asks git about.
func headID(dir string) (string, bool) {
	gitDir := filepath.Join(dir, ".git")
	head, err := os.ReadFile(filepath.Join(gitDir, "HEAD"))
	if err != nil {
		return "", false
	}
	id := strings.TrimSpace(string(head))
	if ref, ok := strings.CutPrefix(id, "ref: refs/heads/"); ok {
		data, err := os.ReadFile(filepath.Join(gitDir, "refs", "heads", filepath.FromSlash(ref)))
		if err != nil {
			return "", false
		}
		id = strings.TrimSpace(string(data))
	}
	return id, isObjectID(id)
}

// isObjectID reports whether s is a full SHA-1 or SHA-256 object name.
func isObjectID(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	return strings.Trim(s, "0123456789abcdef") == ""
}

// Env is the environment the helpers run git with (fixed dates), for a
// test that runs git itself (with its own stdin).
func Env() []string { return append(append(os.Environ(), env...), fixedDates...) }
