package runner

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/internal/app/preview"
	"github.com/ocr-ci/ocr/reporters"
	"github.com/ocr-ci/ocr/review"
)

func TestPreviewModes(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	r.write("main.go", "package main\n\nfunc main() {}\n")
	r.write("go.sum", "x v1 h1:abc\n")
	root := r.commit("root")
	r.git("checkout", "-q", "-b", "feature")
	r.write("main.go", "package main\n\nfunc main() { println(1) }\n")
	r.write("util/util_test.go", "package util\n")
	r.write("vendor/x/x.go", "package x\n")
	feature := r.commit("feature")
	r.git("checkout", "-q", "main")
	r.write("other.go", "package main\n")
	r.commit("main moves on")

	t.Run("range uses the merge base", func(t *testing.T) {
		p := previewJSON(t, "--repo", r.dir, "--from", "main", "--to", "feature")
		if p.Base != root || p.Head != feature || p.Mode != "range" {
			t.Errorf("base %s head %s mode %s: want merge base %s and head %s", p.Base, p.Head, p.Mode, root, feature)
		}
		want := map[string]review.Reason{"main.go": "", "util/util_test.go": review.ReasonTest, "vendor/x/x.go": review.ReasonVendored}
		checkReasons(t, p, want)
	})
	t.Run("root commit against the empty tree", func(t *testing.T) {
		p := previewJSON(t, "--repo", r.dir, "--commit", root)
		checkReasons(t, p, map[string]review.Reason{"main.go": "", "go.sum": review.ReasonLockfile})
		if p.Totals.Files != 2 || p.Totals.Reviewed != 1 {
			t.Errorf("totals %+v", p.Totals)
		}
	})
	t.Run("workspace with untracked files", func(t *testing.T) {
		r.write("new.go", "package main\n")
		r.write("main.go", "package main\n\n// edited\nfunc main() {}\n")
		p := previewJSON(t, "--repo", r.dir)
		checkReasons(t, p, map[string]review.Reason{"main.go": "", "new.go": ""})
	})
	t.Run("include tests", func(t *testing.T) {
		p := previewJSON(t, "--repo", r.dir, "--from", "main", "--to", "feature", "--include-tests", "--exclude", "main.go")
		checkReasons(t, p, map[string]review.Reason{"main.go": review.ReasonUserExclude, "util/util_test.go": ""})
	})
}

func TestPreviewText(t *testing.T) {
	t.Parallel()
	env := testEnv{}
	r := newTestRepo(t)
	r.write("a.go", "package a\n")
	r.write("img.png", "\x89PNG\x00\x00binary")
	r.commit("one")
	code, out, errs := env.run(t, "review", "--repo", r.dir, "--commit", "HEAD", "--preview")
	if code != reporters.ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"2 file(s) changed", "Will review (1):", "[A]  a.go  +1  -0", "img.png  (binary)"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestPreviewEmptyDiff(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	r.write("a.go", "package a\n")
	r.commit("one")
	p := previewJSON(t, "--repo", r.dir)
	if len(p.Files) != 0 || p.Totals.Files != 0 {
		t.Errorf("a clean work tree has nothing to review: %+v", p)
	}
}

func TestReviewUsageErrors(t *testing.T) {
	t.Parallel()
	env := testEnv{}
	r := newTestRepo(t)
	r.write("a.go", "package a\n")
	r.commit("one")
	notRepo := t.TempDir()
	cases := []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"not a repository", []string{"--repo", notRepo, "--preview"}, reporters.ExitUsage, "not a git repository"},
		{"unknown ref", []string{"--repo", r.dir, "--commit", "nope", "--preview"}, reporters.ExitUsage, "nope"},
		{"ref with dash", []string{"--repo", r.dir, "--commit", "--output=/tmp/x", "--preview"}, reporters.ExitUsage, "begins with '-'"},
		{"to without from", []string{"--repo", r.dir, "--to", "HEAD", "--preview"}, reporters.ExitUsage, "--to (OCR_TO) needs --from (OCR_FROM)"},
		{"range and commit", []string{"--repo", r.dir, "--from", "HEAD", "--to", "HEAD", "--commit", "HEAD", "--preview"}, reporters.ExitUsage, "not both"},
		{"unknown flag", []string{"--bogus"}, reporters.ExitUsage, "bogus"},
		{"missing repo dir", []string{"--repo", notRepo + "/missing", "--preview"}, reporters.ExitUsage, "missing"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			code, _, errs := env.run(t, append([]string{"review"}, tc.args...)...)
			if code != tc.code || !strings.Contains(errs, tc.msg) {
				t.Errorf("exit %d, stderr %q: want exit %d mentioning %q", code, errs, tc.code, tc.msg)
			}
		})
	}
}

func previewJSON(t *testing.T, args ...string) preview.Preview {
	t.Helper()
	code, out, errs := testEnv{}.run(t, append([]string{"review", "--preview", "--format", "json"}, args...)...)
	if code != reporters.ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	return decodePreview(t, out)
}

// decodePreview reads the JSON of `ocr review --preview --format json`.
func decodePreview(t *testing.T, out string) preview.Preview {
	t.Helper()
	var p preview.Preview
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		t.Fatalf("preview is not JSON: %v\n%s", err, out)
	}
	return p
}

func checkReasons(t *testing.T, p preview.Preview, want map[string]review.Reason) {
	t.Helper()
	got := map[string]review.Reason{}
	for _, f := range p.Files {
		got[f.Path] = f.Reason
	}
	for path, reason := range want {
		r, ok := got[path]
		if !ok || r != reason {
			t.Errorf("%s: reason %q (present %v), want %q; all: %v", path, r, ok, reason, got)
		}
	}
}

func TestPreviewTextQuotesControlCharacters(t *testing.T) {
	t.Parallel()
	env := testEnv{}
	r := newTestRepo(t)
	r.write("evil\n::error file=x::pwned.go", "package evil\n")
	r.commit("one")
	code, out, errs := env.run(t, "review", "--repo", r.dir, "--commit", "HEAD", "--preview")
	if code != reporters.ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "::") {
			t.Errorf("a file name started a workflow command: %q\n%s", line, out)
		}
	}
	if !strings.Contains(out, `"evil\n::error file=x::pwned.go"`) {
		t.Errorf("the name is not shown quoted:\n%s", out)
	}
}
