package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/reporters"
)

// TestBareRepositoryIsUsage: a bare repository is a configuration error
// (exit 2) for every command that opens the repository, not an incomplete
// review (exit 3), and its internals are never read as plain files.
func TestBareRepositoryIsUsage(t *testing.T) {
	t.Parallel()
	env := testEnv{}
	r := newTestRepo(t)
	r.write("a.go", "package a\n")
	r.commit("one")
	bare := filepath.Join(t.TempDir(), "bare.git")
	r.git("clone", "-q", "--bare", r.dir, bare)
	for _, args := range [][]string{
		{"review", "--repo", bare, "--preview"},
		{"review", "--repo", bare, "--commit", "HEAD", "--preview"},
		{"tools", "call", "file_read", `{"file_path":"config"}`, "--repo", bare},
	} {
		code, out, errs := env.run(t, args...)
		if code != reporters.ExitUsage || !strings.Contains(errs, "work tree") {
			t.Errorf("%v: exit %d, stderr %q: want exit %d saying a work tree is needed", args, code, errs, reporters.ExitUsage)
		}
		if strings.Contains(out, "[core]") {
			t.Errorf("%v: showed the bare repository's config: %q", args, out)
		}
	}
}

// TestStrayArgumentIsUsage: an argument before the flags would make the
// flag package ignore them (a stray word before --preview started a paid
// review); it is a usage error instead.
func TestStrayArgumentIsUsage(t *testing.T) {
	t.Parallel()
	env := testEnv{}
	r := newTestRepo(t)
	r.write("a.go", "package a\n")
	r.commit("one")
	env.set("OCR_LLM_URL", "http://127.0.0.1:1/v1")
	env.set("OCR_LLM_MODEL", "m")
	for _, args := range [][]string{
		{"review", "HEAD", "--repo", r.dir, "--preview"},
		{"env", "extra", "--repo", r.dir},
	} {
		code, out, errs := env.run(t, args...)
		if code != reporters.ExitUsage || !strings.Contains(errs, "takes no argument") {
			t.Errorf("%v: exit %d, stderr %q: want exit %d naming the stray argument", args, code, errs, reporters.ExitUsage)
		}
		if out != "" {
			t.Errorf("%v: printed %q", args, out)
		}
	}
}

// TestBrokenEventPayloadIsUsage: an unreadable or malformed GitHub event
// payload is a broken CI configuration (exit 2), not a failed review.
func TestBrokenEventPayloadIsUsage(t *testing.T) {
	t.Parallel()
	env := testEnv{}
	r := newTestRepo(t)
	r.write("a.go", "package a\n")
	r.commit("one")
	broken := filepath.Join(t.TempDir(), "event.json")
	if err := os.WriteFile(broken, []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, event := range []string{filepath.Join(t.TempDir(), "missing.json"), broken} {
		env.set("GITHUB_ACTIONS", "true")
		env.set("GITHUB_EVENT_NAME", "pull_request")
		env.set("GITHUB_EVENT_PATH", event)
		for _, args := range [][]string{{"env", "--repo", r.dir}, {"review", "--preview", "--repo", r.dir}} {
			code, _, errs := env.run(t, args...)
			if code != reporters.ExitUsage || !strings.Contains(errs, "GITHUB_EVENT_PATH") {
				t.Errorf("%v with event %s: exit %d, stderr %q; want exit %d naming GITHUB_EVENT_PATH", args, event, code, errs, reporters.ExitUsage)
			}
		}
	}
}

func TestVersionTakesNoArguments(t *testing.T) {
	t.Parallel()
	if code, out, _ := run(t, "version"); code != reporters.ExitOK || !strings.HasPrefix(out, "ocr ") {
		t.Errorf("ocr version: exit %d, %q", code, out)
	}
	if code, _, errs := run(t, "version", "--x"); code != reporters.ExitUsage || !strings.Contains(errs, "no arguments") {
		t.Errorf("ocr version --x: exit %d, %q", code, errs)
	}
}
