package runner

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/internal/app/config"
	"github.com/ocr-ci/ocr/tools"
)

func TestToolsNeverShowCredentials(t *testing.T) {
	t.Parallel()
	env := testEnv{}
	r := newTestRepo(t)
	r.write("app.go", "package app // password is in .env\n")
	r.write(".env", "PASSWORD=hunter2\n")
	r.write("deploy/id_rsa", "-----BEGIN OPENSSH PRIVATE KEY----- password\n")
	r.commit("one")
	reg := tools.Default()
	c := &Command{Stdout: &strings.Builder{}, Stderr: &strings.Builder{}, LookupEnv: config.MapLookup(env)}
	cfg := &config.Config{Repo: r.dir, Commit: "HEAD", MaxGitProcs: 4}
	s, done, err := c.toolSession(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer done()
	for _, call := range [][2]string{
		{"file_read", `{"file_path": ".env"}`},
		{"file_read", `{"file_path": "deploy/id_rsa"}`},
		{"file_find", `{"query_name": "env"}`},
		{"file_find", `{"query_name": "id_rsa"}`},
		{"code_search", `{"search_text": "password"}`},
		{"file_read_diff", `{"path_array": [".env", "deploy/id_rsa"]}`},
	} {
		res := reg.CallJSON(context.Background(), s, call[0], call[1])
		if strings.Contains(res.Text, "hunter2") || strings.Contains(res.Text, "PRIVATE KEY") || strings.Contains(res.Text, "id_rsa") && call[0] != "file_read" {
			t.Errorf("%s %s showed a credentials file:\n%s", call[0], call[1], res.Text)
		}
	}
	if res := reg.CallJSON(context.Background(), s, "code_search", `{"search_text": "password"}`); !strings.Contains(res.Text, "app.go") {
		t.Errorf("the guard must not hide ordinary files:\n%s", res.Text)
	}
}

// A symlink committed under an innocent name reads the credentials file it
// points to (cat-file --follow-symlinks at a ref, the file system in the
// work tree): the guard must refuse it too.
func TestToolsNeverShowCredentialsThroughSymlinks(t *testing.T) {
	t.Parallel()
	env := testEnv{}
	r := newTestRepo(t)
	r.write("app.go", "package app\n")
	r.write("config/.env", "PASSWORD=hunter2\n")
	r.commit("one")
	if err := os.Symlink("config/.env", filepath.Join(r.dir, "notes.txt")); err != nil {
		t.Skip("no symlinks here:", err)
	}
	r.commit("two")
	reg := tools.Default()
	c := &Command{Stdout: &strings.Builder{}, Stderr: &strings.Builder{}, LookupEnv: config.MapLookup(env)}
	for _, cfg := range []*config.Config{
		{Repo: r.dir, Commit: "HEAD", MaxGitProcs: 4},
		{Repo: r.dir, MaxGitProcs: 4}, // the work tree
	} {
		s, done, err := c.toolSession(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		res := reg.CallJSON(context.Background(), s, "file_read", `{"file_path": "notes.txt"}`)
		if strings.Contains(res.Text, "hunter2") {
			t.Errorf("commit %q: file_read of a symlink showed the credentials file:\n%s", cfg.Commit, res.Text)
		}
		if res := reg.CallJSON(context.Background(), s, "file_read", `{"file_path": "app.go"}`); !strings.Contains(res.Text, "package app") {
			t.Errorf("commit %q: the guard must not hide ordinary files:\n%s", cfg.Commit, res.Text)
		}
		done()
	}
}

// TestReportSymlinkIsAUsageError: a report path the pull request made a
// symlink stops the run before the review with exit 2 and the path named;
// the file it points to is untouched.
func TestReportSymlinkIsAUsageError(t *testing.T) {
	t.Parallel()
	for _, report := range []string{"sarif=ocr.sarif", "codequality=gl-code-quality-report.json", "json=out/ocr.json"} {
		t.Run(report, func(t *testing.T) {
			t.Parallel()
			r := newTestRepo(t)
			r.write("a.go", "package a\n")
			r.commit("a")
			victim := filepath.Join(t.TempDir(), ".bashrc")
			if err := os.WriteFile(victim, []byte("safe\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			_, path, _ := strings.Cut(report, "=")
			target := victim
			if dir, _, ok := strings.Cut(path, "/"); ok {
				path, target = dir, filepath.Dir(victim)
			}
			if err := os.Symlink(target, filepath.Join(r.dir, path)); err != nil {
				t.Fatal(err)
			}
			workIn(t, r.dir)
			code, _, stderr := run(t, "review", "--commit", "HEAD", "--report", report)
			if code != 2 || !strings.Contains(stderr, "symlink") || !strings.Contains(stderr, path) {
				t.Errorf("exit %d, stderr %q; want 2 naming the symlink %q", code, stderr, path)
			}
			if b, _ := os.ReadFile(victim); string(b) != "safe\n" {
				t.Errorf("the file behind the symlink was written: %q", b)
			}
		})
	}
}
