package reporters_test

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/ocr-ci/ocr/reporters"
	"github.com/ocr-ci/ocr/review/reportspec"
)

// hostile is a working directory laid out by a pull request's author: each
// case names the report path and what it is. victim stands for ~/.bashrc.
type hostile struct {
	name  string
	path  string
	setup func(t *testing.T, wd, victim string)
}

func hostilePaths() []hostile {
	link := func(target, name string) func(t *testing.T, wd, victim string) {
		return func(t *testing.T, wd, victim string) {
			t.Helper()
			if target == "" {
				target = victim
			}
			if err := os.Symlink(target, filepath.Join(wd, name)); err != nil {
				t.Fatal(err)
			}
		}
	}
	return []hostile{
		{"symlink to a file", "ocr.sarif", link("", "ocr.sarif")},
		{"relative symlink", "gl-code-quality-report.json", func(t *testing.T, wd, victim string) {
			rel, err := filepath.Rel(wd, victim)
			if err != nil {
				t.Fatal(err)
			}
			link(rel, "gl-code-quality-report.json")(t, wd, victim)
		}},
		{"dangling symlink", "ocr.json", func(t *testing.T, wd, victim string) {
			link(victim+".new", "ocr.json")(t, wd, victim)
		}},
		{"symlinked directory", "reports/ocr.sarif", func(t *testing.T, wd, victim string) {
			link(filepath.Dir(victim), "reports")(t, wd, victim)
			if err := os.Symlink(victim, filepath.Join(filepath.Dir(victim), "ocr.sarif")); err != nil {
				t.Fatal(err)
			}
		}},
		{"symlinked directory, new name", "out/.bashrc", func(t *testing.T, wd, victim string) {
			link(filepath.Dir(victim), "out")(t, wd, victim)
		}},
		{"symlink to a symlink", "ocr.sarif", func(t *testing.T, wd, victim string) {
			link(victim, "hop")(t, wd, victim)
			link("hop", "ocr.sarif")(t, wd, victim)
		}},
		{"named pipe", "ocr.sarif", func(t *testing.T, wd, _ string) {
			if err := syscall.Mkfifo(filepath.Join(wd, "ocr.sarif"), 0o644); err != nil {
				t.Skip("no named pipes here:", err)
			}
			// A reader, so a write through the pipe does not hang the test
			// when the refusal is missing. Its errors tell nothing: the test
			// checks the refusal itself.
			go func() {
				f, err := os.Open(filepath.Join(wd, "ocr.sarif"))
				if err == nil {
					_, _ = io.Copy(io.Discard, f)
					_ = f.Close()
				}
			}()
		}},
	}
}

// inHostileDir makes a checkout and a victim outside it, chdirs into the
// checkout and returns the victim's path and content.
func inHostileDir(t *testing.T, h hostile) (victim, content string) {
	t.Helper()
	home, wd := t.TempDir(), t.TempDir()
	victim, content = filepath.Join(home, ".bashrc"), "export PATH=/usr/bin\n"
	if err := os.WriteFile(victim, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	h.setup(t, wd, victim)
	t.Chdir(wd)
	return victim, content
}

// assertUntouched fails unless the victim's directory holds exactly the
// victim with its content (no new file written through a link either).
func assertUntouched(t *testing.T, victim, content string) {
	t.Helper()
	if b, err := os.ReadFile(victim); err != nil || string(b) != content {
		t.Errorf("the file outside the checkout was written: %q, %v", b, err)
	}
	entries, _ := os.ReadDir(filepath.Dir(victim))
	for _, e := range entries {
		if e.Name() != filepath.Base(victim) && e.Name() != "ocr.sarif" {
			t.Errorf("a file was created outside the checkout: %s", e.Name())
		}
	}
	if _, err := os.Stat(victim + ".new"); err == nil {
		t.Error("a dangling symlink's target was created")
	}
}

// TestReportFileNeverFollowsSymlinks: a report spec whose path the pull
// request made a symlink (to a file, dangling, relative, chained), a path
// below a symlinked directory or a named pipe is refused by the check
// before the review (naming the path), and the file outside is untouched.
func TestReportFileNeverFollowsSymlinks(t *testing.T) {
	for _, h := range hostilePaths() {
		for _, kind := range []reportspec.Kind{reportspec.KindSARIF, reportspec.KindCodeQuality, reportspec.KindJSON, reportspec.KindGitHubSummary} {
			t.Run(h.name+"/"+string(kind), func(t *testing.T) {
				victim, content := inHostileDir(t, h)
				s := reportspec.Spec{Kind: kind, Path: h.path}
				err := reporters.Files{}.Check(s)
				if err == nil || !errors.Is(err, reporters.ErrUnsafePath) || !strings.Contains(err.Error(), h.path) {
					t.Errorf("Check = %v; want a refusal naming %q", err, h.path)
				}
				w, err := reporters.Files{}.Open(s, io.Discard)
				if err == nil {
					// The refusal is missing: write through it, so that
					// assertUntouched shows the damage. The test fails anyway.
					_, _ = io.WriteString(w, "PWNED\n")
					_ = w.Close()
					t.Errorf("Open wrote through %q", h.path)
				} else if !strings.Contains(err.Error(), h.path) {
					t.Errorf("the error does not name the path: %v", err)
				}
				assertUntouched(t, victim, content)
			})
		}
	}
}

// TestCreateFileReplacesALinkMadeLater: a symlink that appears after the
// file was started is replaced by the rename's check, not written through.
func TestCreateFileReplacesALinkMadeLater(t *testing.T) {
	for _, h := range hostilePaths()[:3] {
		t.Run(h.name, func(t *testing.T) {
			home, wd := t.TempDir(), t.TempDir()
			victim := filepath.Join(home, ".bashrc")
			if err := os.WriteFile(victim, []byte("safe\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			t.Chdir(wd)
			f, err := reporters.Files{}.CreateFile(h.path)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := io.WriteString(f, "report\n"); err != nil {
				t.Fatal(err)
			}
			h.setup(t, wd, victim)
			if err := f.Close(); err == nil || !strings.Contains(err.Error(), h.path) {
				t.Errorf("Close = %v; want a refusal naming %q", err, h.path)
			}
			assertUntouched(t, victim, "safe\n")
			if left, _ := filepath.Glob(filepath.Join(wd, ".*.ocr-*")); len(left) != 0 {
				t.Errorf("temporary files left behind: %v", left)
			}
		})
	}
}

// TestCreateFileWritesRegularFiles: a new or existing regular file gets
// the report, mode 0644, with nothing left beside it; an existing one is
// replaced whole.
func TestCreateFileWritesRegularFiles(t *testing.T) {
	t.Chdir(t.TempDir())
	if err := os.Mkdir("reports", 0o755); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"ocr.sarif", "reports/ocr.sarif"} {
		for _, before := range []string{"", "a much longer old report\n"} {
			if before != "" {
				if err := os.WriteFile(p, []byte(before), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			f, err := reporters.Files{}.CreateFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := io.WriteString(f, "new\n"); err != nil {
				t.Fatal(err)
			}
			if err := f.Close(); err != nil {
				t.Fatal(err)
			}
			fi, err := os.Lstat(p)
			if b, _ := os.ReadFile(p); err != nil || string(b) != "new\n" || fi.Mode() != 0o644 {
				t.Errorf("%s: %q, %v, %v", p, b, fi.Mode(), err)
			}
		}
	}
	if left, _ := filepath.Glob("*/.*ocr-*"); len(left) != 0 {
		t.Errorf("temporary files left behind: %v", left)
	}
}

// TestAppendFileKeepsAppending: $GITHUB_STEP_SUMMARY and $GITHUB_OUTPUT are
// the runner's files, appended to and never replaced; made a symlink or a
// pipe they are refused.
func TestAppendFileKeepsAppending(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	p := filepath.Join(dir, "step_summary")
	for _, s := range []string{"one\n", "two\n"} {
		f, err := reporters.Files{}.AppendFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.WriteString(f, s); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if b, _ := os.ReadFile(p); string(b) != "one\ntwo\n" {
		t.Errorf("appended: %q", b)
	}
	for _, h := range hostilePaths() {
		t.Run(h.name, func(t *testing.T) {
			victim, content := inHostileDir(t, h)
			f, err := reporters.Files{}.AppendFile(h.path)
			if err == nil {
				// The refusal is missing: write through it, so that
				// assertUntouched shows the damage. The test fails anyway.
				_, _ = io.WriteString(f, "PWNED\n")
				_ = f.Close()
				t.Errorf("AppendFile wrote through %q", h.path)
			}
			assertUntouched(t, victim, content)
		})
	}
}

// TestReportInAMissingFolder: a report path whose folders do not exist yet
// gets them, when checked and when written; a folder that cannot be
// created is named by the report's path, never by the temporary file's.
func TestReportInAMissingFolder(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "out", "reports", "ocr.html")
	if err := (reporters.Files{}).CheckPath(path); err != nil {
		t.Fatalf("CheckPath: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "out")); err == nil {
		t.Errorf("CheckPath left a folder behind")
	}
	f, err := reporters.Files{}.CreateFile(path)
	if err != nil {
		t.Fatalf("CreateFile: %v", err)
	}
	if _, err := io.WriteString(f, "x"); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(path); err != nil || string(got) != "x" {
		t.Errorf("read back %q, %v", got, err)
	}
	blocker := filepath.Join(dir, "file")
	if err := os.WriteFile(blocker, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	err = reporters.Files{}.CheckPath(filepath.Join(blocker, "sub", "ocr.html"))
	if err == nil || strings.Contains(err.Error(), ".ocr-") || !strings.Contains(err.Error(), "file/sub/ocr.html") {
		t.Errorf("a folder that cannot be made: %v", err)
	}
}
