package git

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func TestOpen(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := initRepo(t)
	writeFiles(t, dir, map[string]string{"sub/x.txt": "x\n"})
	r, err := Open(ctx, filepath.Join(dir, "sub"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer closeRepo(t, r)
	want, _ := filepath.EvalSymlinks(dir)
	if r.Dir() != want {
		t.Errorf("Dir() = %q, want %q", r.Dir(), want)
	}

	_, err = Open(ctx, t.TempDir(), Options{})
	wantErr(t, err, ErrNotRepository)
	if !strings.Contains(err.Error(), "--repo") {
		t.Errorf("error %q does not say to pass --repo", err)
	}
	if _, err := Open(ctx, filepath.Join(dir, "missing"), Options{}); err == nil || errors.Is(err, ErrNotRepository) {
		t.Errorf("Open(missing dir) = %v, want a plain error", err)
	}
}

func TestOpenIgnoresGitDirEnv(t *testing.T) {
	dir := initRepo(t)
	commitFiles(t, dir, "one", map[string]string{"a": "a\n"})
	t.Setenv("GIT_DIR", t.TempDir())
	t.Setenv("GIT_WORK_TREE", t.TempDir())
	r := openT(t, dir)
	if _, err := r.ResolveCommit(context.Background(), "HEAD"); err != nil {
		t.Fatal(err)
	}
}

func TestResolveCommit(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := initRepo(t)
	c1 := commitFiles(t, dir, "one", map[string]string{"a.txt": "a\n"})
	gitT(t, dir, "tag", "-a", "-m", "v1", "v1")
	r := openT(t, dir)

	for _, ref := range []string{"HEAD", "main", "v1", c1, c1[:10]} {
		got, err := r.ResolveCommit(ctx, ref)
		if err != nil || got != c1 {
			t.Errorf("ResolveCommit(%q) = %q, %v; want %q", ref, got, err, c1)
		}
	}
	out := filepath.Join(t.TempDir(), "x")
	for _, ref := range []string{"-x", "--output=" + out, "", "a\nb"} {
		_, err := r.ResolveCommit(ctx, ref)
		wantErr(t, err, ErrBadRef)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("--output ref created %s", out)
	}
	blob := gitT(t, dir, "rev-parse", "HEAD:a.txt")
	for _, ref := range []string{"nope", blob, strings.Repeat("1", 40)} {
		_, err := r.ResolveCommit(ctx, ref)
		wantErr(t, err, ErrUnknownRef)
		if !strings.Contains(err.Error(), "fetch") || !strings.Contains(err.Error(), ref) {
			t.Errorf("error %q should name %q and suggest fetching", err, ref)
		}
	}
}

func TestMergeBaseFirstParentHead(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := initRepo(t)
	r := openT(t, dir)
	if sha, unborn, err := r.Head(ctx); err != nil || !unborn || sha != "" {
		t.Fatalf("Head() on an empty repo = %q, %v, %v", sha, unborn, err)
	}
	root := commitFiles(t, dir, "root", map[string]string{"a": "1\n"})
	gitT(t, dir, "checkout", "-q", "-b", "side")
	side := commitFiles(t, dir, "side", map[string]string{"b": "2\n"})
	gitT(t, dir, "checkout", "-q", "main")
	main2 := commitFiles(t, dir, "main2", map[string]string{"c": "3\n"})
	gitT(t, dir, "merge", "-q", "--no-ff", "-m", "merge", "side")
	merge := gitT(t, dir, "rev-parse", "HEAD")

	if sha, unborn, err := r.Head(ctx); err != nil || unborn || sha != merge {
		t.Errorf("Head() = %q, %v, %v; want %q", sha, unborn, err, merge)
	}
	if mb, err := r.MergeBase(ctx, side, main2); err != nil || mb != root {
		t.Errorf("MergeBase = %q, %v; want %q", mb, err, root)
	}
	_, err := r.MergeBase(ctx, "-x", main2)
	wantErr(t, err, ErrBadRef)
	for commit, want := range map[string]string{root: "", merge: main2, side: root} {
		if got, err := r.FirstParent(ctx, commit); err != nil || got != want {
			t.Errorf("FirstParent(%.7s) = %q, %v; want %q", commit, got, err, want)
		}
	}
	_, err = r.FirstParent(ctx, "--output=x")
	wantErr(t, err, ErrBadRef)

	orphan := initRepo(t)
	commitFiles(t, orphan, "other", map[string]string{"z": "z\n"})
	gitT(t, dir, "fetch", "-q", orphan, "main:other")
	_, err = r.MergeBase(ctx, "main", "other")
	wantErr(t, err, ErrNoMergeBase)
}

func TestErrorMessage(t *testing.T) {
	t.Parallel()
	dir := initRepo(t)
	commitFiles(t, dir, "one", map[string]string{"a": "a\n"})
	r := openT(t, dir)
	_, err := r.Diff(context.Background(), "HEAD", "0123456789abcdef0123456789abcdef01234567")
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v is not an *Error", err)
	}
	if e.ExitCode != 128 || e.Args[0] != "diff" || !strings.Contains(e.Stderr, "bad object") {
		t.Errorf("Error = %+v", e)
	}
	for _, want := range []string{"git diff", "exit status 128", "bad object", "fetch-depth: 0"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("message %q lacks %q", err, want)
		}
	}
}

func TestParseVersion(t *testing.T) {
	t.Parallel()
	for in, want := range map[string][2]int{
		"git version 2.39.5\n":                 {2, 39},
		"git version 2.39.3 (Apple Git-146)\n": {2, 39},
		"git version 2.43.0.windows.1":         {2, 43},
		"garbage":                              {0, 0},
	} {
		if got := parseVersion(in); got != want {
			t.Errorf("parseVersion(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestProcessLimit(t *testing.T) {
	t.Parallel()
	dir := initRepo(t)
	commitFiles(t, dir, "one", map[string]string{"a": "a\n"})
	r, err := Open(context.Background(), dir, Options{MaxProcs: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer closeRepo(t, r)
	var wg sync.WaitGroup
	for range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := r.ResolveCommit(context.Background(), "HEAD"); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if p := r.peak.Load(); p > 2 || p < 1 {
		t.Errorf("%d git processes ran at once, want at most 2", p)
	}

	r.sem <- struct{}{} // take both slots: a call must wait, then give up
	r.sem <- struct{}{}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = r.IsShallow(ctx)
	wantErr(t, err, context.Canceled)
}

func TestPlain(t *testing.T) {
	t.Parallel()
	r := Plain(t.TempDir(), Options{})
	ctx := context.Background()
	_, err := r.ResolveCommit(ctx, "HEAD")
	wantErr(t, err, ErrNotRepository)
	_, err = r.Diff(ctx, "a", "b")
	wantErr(t, err, ErrNotRepository)
	_, err = r.ListFiles(ctx, "")
	wantErr(t, err, ErrNotRepository)
	_, err = r.ReadFile(ctx, "HEAD", "x")
	wantErr(t, err, ErrNotRepository)
}

func TestResolveHeadOfEmptyRepository(t *testing.T) {
	t.Parallel()
	r := openT(t, initRepo(t))
	_, err := r.ResolveCommit(context.Background(), "HEAD")
	wantErr(t, err, ErrUnknownRef)
	if err == nil || !strings.Contains(err.Error(), "no commit yet") {
		t.Errorf("error %v does not say the repository has no commit", err)
	}
}
