package runner

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/reporters"
	"github.com/ocr-ci/ocr/review"
)

// TestScanRanksBeforeTheCut: over --max-files, source code goes first
// (the most recently changed first), then build files, then other text;
// data files are left out with reason data unless --include names them,
// and the preview says each cut file's rank.
func TestScanRanksBeforeTheCut(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	r.write("a/old.go", "package a\n")
	r.write("a/new.go", "package a\n")
	r.write("Dockerfile", "FROM scratch\n")
	r.write("NOTES", "plain text\n")
	r.write("data/users.json", "[]\n")
	r.commit("one")
	r.write("a/new.go", "package a\n\nvar X = 1\n")
	r.commit("two")
	env := testEnv{}
	files := scanPreviewFiles(t, env, "--repo", r.dir)
	if f := files["data/users.json"]; f.Reason != review.ReasonData {
		t.Errorf("data/users.json: reason %q, want data", f.Reason)
	}
	if f := scanPreviewFiles(t, env, "--repo", r.dir, "--include", "data/**")["data/users.json"]; !f.Reviewed {
		t.Errorf("--include data/** did not bring the data file back: %+v", f)
	}
	reviewed := func(limit string) string {
		code, out, errs := env.run(t, "scan", "--repo", r.dir, "--preview", "--max-files", limit)
		if code != reporters.ExitOK {
			t.Fatalf("exit %d\n%s", code, errs)
		}
		return out
	}
	for limit, want := range map[string][]string{"1": {"a/new.go"}, "2": {"a/new.go", "a/old.go"}, "3": {"a/new.go", "a/old.go", "Dockerfile"}} {
		out := reviewed(limit)
		head, _, _ := strings.Cut(out, "Not reviewed")
		for _, p := range []string{"a/new.go", "a/old.go", "Dockerfile", "NOTES"} {
			if in := strings.Contains(head, "  "+p+"  +"); in != contains(want, p) {
				t.Errorf("--max-files %s: %s reviewed %v\n%s", limit, p, in, out)
			}
		}
	}
	if out := reviewed("1"); !strings.Contains(out, "Dockerfile  (budget: beyond --max-files 1") || !strings.Contains(out, "(rank: build, CI or configuration file)") {
		t.Errorf("the preview does not say why and by which rank a file was cut:\n%s", out)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestScanSinceAndSubdirectoryPaths: --since scans only the files changed
// since REF, whole; PATHs are relative to the directory ocr runs in.
func TestScanSinceAndSubdirectoryPaths(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	scanTree(r.write)
	r.commit("root")
	r.write("svc/util.go", "package svc\n\nfunc clamp(v int) int { return min(v, 10) }\n")
	r.write("lib/new.go", "package lib\n")
	r.commit("two")
	env := testEnv{}
	got := scanPreviewFiles(t, env, "--repo", r.dir, "--since", "HEAD~1")
	if len(got) != 2 || !got["svc/util.go"].Reviewed || !got["lib/new.go"].Reviewed {
		t.Errorf("--since HEAD~1: %v, want svc/util.go and lib/new.go", got)
	}
	if code, _, errs := env.run(t, "scan", "--repo", r.dir, "--preview", "--since", "nope"); code != reporters.ExitUsage || !strings.Contains(errs, "--since nope") {
		t.Errorf("--since of an unknown ref: exit %d, %q", code, errs)
	}
	sub := filepath.Join(r.dir, "svc")
	got = scanPreviewFiles(t, env, "--repo", sub, "util.go", "../lib/parse.go")
	if len(got) != 2 || !got["svc/util.go"].Reviewed || !got["lib/parse.go"].Reviewed {
		t.Errorf("PATHs from svc/: %v, want svc/util.go and lib/parse.go", got)
	}
	if code, _, errs := env.run(t, "scan", "--repo", sub, "--preview", "../../x"); code != reporters.ExitUsage || !strings.Contains(errs, "leaves the scanned tree") {
		t.Errorf("a PATH above the repository: exit %d, %q", code, errs)
	}
}
