package git

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// TestReviewProcesses counts the git processes of a pull request review's
// reads: open, resolve base and head, merge base, diff, read a file at head.
// Before resolving through cat-file, learning the version from trace2 and
// remembering merge bases, the same calls took 9 (version, rev-parse ×3,
// merge-base ×2, diff, cat-file, rev-list).
func TestReviewProcesses(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := initRepo(t)
	commitFiles(t, dir, "base", map[string]string{"a.go": "package a\n"})
	gitT(t, dir, "checkout", "-q", "-b", "feature")
	head := commitFiles(t, dir, "head", map[string]string{"a.go": "package a\n\nvar X = 1\n"})
	r := openT(t, dir)
	base, err := r.ResolveCommit(ctx, "main")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.ResolveCommit(ctx, head); err != nil {
		t.Fatal(err)
	}
	mb, err := r.MergeBase(ctx, base, head)
	if err != nil || mb != base {
		t.Fatalf("MergeBase = %q, %v; want %q", mb, err, base)
	}
	if _, _, err := r.DiffTextWithin(ctx, mb, head, 1<<20); err != nil {
		t.Fatal(err)
	}
	if _, err := r.ReadFile(ctx, head, "a.go"); err != nil {
		t.Fatal(err)
	}
	// Asked again (the rules, EnsureHistory, incremental reviews), these
	// start nothing.
	if _, err := r.MergeBase(ctx, base, head); err != nil {
		t.Fatal(err)
	}
	if _, err := r.FirstParent(ctx, head); err != nil {
		t.Fatal(err)
	}
	// rev-parse (Open), cat-file, merge-base, diff.
	if got := r.started.Load(); got != 4 {
		t.Errorf("a review started %d git processes, want 4", got)
	}
}

// TestOpenLearnsVersion: Open reads git's version from the trace2 events of
// its rev-parse rather than running `git version`.
func TestOpenLearnsVersion(t *testing.T) {
	t.Parallel()
	r := openT(t, initRepo(t))
	if !r.atLeast(minMajor, minMinor) {
		t.Errorf("version = %v, want at least %s", r.version, MinVersion)
	}
	if got := r.started.Load(); got != 1 {
		t.Errorf("Open started %d git processes, want 1", got)
	}
}

func TestTraceVersion(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		`{"event":"version","evt":"3","exe":"2.39.5"}` + "\n" + `{"event":"start"}`:                "git version 2.39.5",
		`{"event":"start","argv":["git"]}` + "\n" + `{"event":"version","exe":"2.43.0.windows.1"}`: "git version 2.43.0.windows.1",
		"": "", "not json\n": "", `{"event":"version"}`: "",
	} {
		if got := traceVersion(strings.NewReader(in)); got != want {
			t.Errorf("traceVersion(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestBatchable(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]bool{
		"HEAD": true, "main": true, "origin/release-1.0": true, "HEAD~2": true, "main^": true,
		"v1.2+build": true, "@": true, strings.Repeat("a", 40): true,
		"@{u}": false, "main@{1}": false, "^main": false, "a..b": false, "HEAD:a.go": false,
		"main^{tree}": false, ":/fix": false, "a b": false, "": false,
	} {
		if got := batchable(name); got != want {
			t.Errorf("batchable(%q) = %v, want %v", name, got, want)
		}
	}
}

// TestResolveFallsBack: names cat-file cannot take go to rev-parse, with
// rev-parse's answers, and leave the cat-file process running (it dies on
// "@{u}" without an upstream).
func TestResolveFallsBack(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := initRepo(t)
	c1 := commitFiles(t, dir, "one", map[string]string{"a.txt": "a\n"})
	c2 := commitFiles(t, dir, "two", map[string]string{"a.txt": "b\n"})
	r := openT(t, dir)
	if _, err := r.ReadFile(ctx, "HEAD", "a.txt"); err != nil {
		t.Fatal(err)
	}
	if _, err := r.ResolveCommit(ctx, "@{u}"); err == nil || !strings.Contains(err.Error(), "no upstream") {
		t.Errorf("ResolveCommit(@{u}) = %v, want rev-parse's error", err)
	}
	for ref, want := range map[string]string{"main@{1}": c1, "HEAD~1": c1, "main^{/two}": c2, c1[:9]: c1} {
		if got, err := r.ResolveCommit(ctx, ref); err != nil || got != want {
			t.Errorf("ResolveCommit(%q) = %q, %v; want %q", ref, got, err, want)
		}
	}
	n := r.started.Load()
	if _, err := r.ReadFile(ctx, "HEAD", "a.txt"); err != nil {
		t.Fatal(err)
	}
	if got := r.started.Load(); got != n {
		t.Errorf("ReadFile started %d git processes after the fallbacks, want 0 (cat-file was stopped)", got-n)
	}
}

// TestResolveAfterFetch: after a fetch the cat-file process answers for the
// commits and refs it brought, and merge bases are asked again.
func TestResolveAfterFetch(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	origin := initRepo(t)
	root := commitFiles(t, origin, "root", map[string]string{"a.txt": "a\n"})
	clone := filepath.Join(t.TempDir(), "clone")
	gitT(t, origin, "clone", "-q", "file://"+origin, clone)
	r := openT(t, clone)
	if mb, err := r.MergeBase(ctx, root, root); err != nil || mb != root {
		t.Fatalf("MergeBase = %q, %v", mb, err)
	}
	gitT(t, origin, "checkout", "-q", "-b", "feature")
	head := commitFiles(t, origin, "feature", map[string]string{"b.txt": "b\n"})
	if _, err := r.ResolveCommit(ctx, head); err == nil {
		t.Fatalf("ResolveCommit(%.7s) before the fetch found it", head)
	}
	if _, err := r.EnsureHistory(ctx, root, head); err != nil {
		t.Fatal(err)
	}
	if got, err := r.ResolveCommit(ctx, head); err != nil || got != head {
		t.Errorf("ResolveCommit after the fetch = %q, %v; want %q", got, err, head)
	}
	if got, err := r.FirstParent(ctx, head); err != nil || got != root {
		t.Errorf("FirstParent after the fetch = %q, %v; want %q", got, err, root)
	}
	if data, err := r.ReadFile(ctx, head, "b.txt"); err != nil || string(data) != "b\n" {
		t.Errorf("ReadFile after the fetch = %q, %v", data, err)
	}
	if _, ok := r.bases.Load(root + " " + root); ok {
		t.Error("a merge base survived the fetch")
	}
}
