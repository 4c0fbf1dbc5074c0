package git

import (
	"context"
	"maps"
	"slices"
	"testing"
)

func TestRecentPathsAndChangedPaths(t *testing.T) {
	t.Parallel()
	dir := initRepo(t)
	first := commitFiles(t, dir, "one", map[string]string{"a.go": "a\n", "b.go": "b\n", "d/c.go": "c\n"})
	commitFiles(t, dir, "two", map[string]string{"d/c.go": "c2\n"})
	commitFiles(t, dir, "three", map[string]string{"b.go": "b2\n"})
	gitT(t, dir, "rm", "-q", "a.go")
	gitT(t, dir, "commit", "-q", "-m", "four")
	r := openT(t, dir)
	ctx := context.Background()
	got, err := r.RecentPaths(ctx, "HEAD", 100)
	if want := map[string]int{"a.go": 0, "b.go": 1, "d/c.go": 2}; err != nil || !maps.Equal(got, want) {
		t.Errorf("RecentPaths = %v, %v; want %v (the commit that last changed each)", got, err, want)
	}
	if got, err := r.RecentPaths(ctx, "HEAD", 2); err != nil || !maps.Equal(got, map[string]int{"a.go": 0, "b.go": 1}) {
		t.Errorf("RecentPaths bounded to 2 commits = %v, %v", got, err)
	}
	if got, err := r.ChangedPaths(ctx, first, "HEAD"); err != nil || !slices.Equal(got, []string{"b.go", "d/c.go"}) {
		t.Errorf("ChangedPaths(first, HEAD) = %q, %v; want the modified files, not the deleted one", got, err)
	}
	writeFiles(t, dir, map[string]string{"new.go": "n\n", "d/c.go": "c3\n"})
	if got, err := r.ChangedPaths(ctx, "HEAD", ""); err != nil || !slices.Equal(got, []string{"d/c.go", "new.go"}) {
		t.Errorf("ChangedPaths(HEAD, work tree) = %q, %v; want the modified and the untracked file", got, err)
	}
	if _, err := r.RecentPaths(ctx, "--output=x", 5); err == nil {
		t.Error("a ref beginning with '-' was accepted")
	}
}
