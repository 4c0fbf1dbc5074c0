package git

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// linearCommits adds n commits on top of parent to branch with
// git fast-import (fast enough for thousands) and returns the tip.
func linearCommits(t *testing.T, dir, branch, parent string, n int) string {
	t.Helper()
	var in strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&in, "commit refs/heads/%s\ncommitter T <t@example.com> %d +0000\ndata 3\nc%d\n", branch, 1700000000+i, i%10)
		if i == 1 {
			fmt.Fprintf(&in, "from %s\n", parent)
		}
		fmt.Fprintf(&in, "M 100644 inline %s.txt\ndata %d\n%d\n\n", branch, len(fmt.Sprint(i))+1, i)
	}
	cmd := exec.CommandContext(context.Background(), "git", "fast-import", "--quiet")
	cmd.Dir, cmd.Stdin = dir, strings.NewReader(in.String())
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("fast-import: %v\n%s", err, out)
	}
	return gitT(t, dir, "rev-parse", "refs/heads/"+branch)
}

// shallowFixture makes an origin whose feature branch forks from main
// depth commits back, and a --depth 1 clone of feature. It returns the
// clone, the fork point, main's tip (base) and feature's tip (head).
func shallowFixture(t *testing.T, depth int) (clone, fork, base, head string) {
	t.Helper()
	origin := initRepo(t)
	for i := range 5 {
		fork = commitFiles(t, origin, "main", map[string]string{"m.txt": fmt.Sprint(i)})
	}
	head = linearCommits(t, origin, "feature", fork, depth)
	base = linearCommits(t, origin, "main", fork, 3)
	clone = filepath.Join(t.TempDir(), "clone")
	gitT(t, origin, "clone", "-q", "--depth", "1", "--branch", "feature", "file://"+origin, clone)
	return clone, fork, base, head
}

func TestEnsureHistoryDeepens(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clone, fork, base, head := shallowFixture(t, 35)
	r := openT(t, clone)
	if shallow, err := r.IsShallow(ctx); err != nil || !shallow {
		t.Fatalf("IsShallow = %v, %v", shallow, err)
	}
	_, err := r.FirstParent(ctx, head)
	wantErr(t, err, ErrShallow)

	notes, err := r.EnsureHistory(ctx, base, head)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"fetched commit " + base[:12] + " from origin", "deepened the shallow clone by 50 commits from origin"}
	if strings.Join(notes, "|") != strings.Join(want, "|") {
		t.Errorf("notes = %q, want %q", notes, want)
	}
	if mb, err := r.MergeBase(ctx, base, head); err != nil || mb != fork {
		t.Errorf("MergeBase = %q, %v; want %q", mb, err, fork)
	}
	if notes, err := r.EnsureHistory(ctx, base, head); err != nil || notes != nil {
		t.Errorf("second EnsureHistory = %q, %v; want nothing to do", notes, err)
	}
}

func TestEnsureHistoryUnshallows(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clone, fork, base, head := shallowFixture(t, 1300)
	r := openT(t, clone)
	notes, err := r.EnsureHistory(ctx, base, head)
	if err != nil {
		t.Fatal(err)
	}
	if len(notes) != 5 || !strings.Contains(notes[4], "unshallow") {
		t.Errorf("notes = %q, want a fetch, three deepenings and an unshallow", notes)
	}
	if mb, err := r.MergeBase(ctx, base, head); err != nil || mb != fork {
		t.Errorf("MergeBase = %q, %v; want %q", mb, err, fork)
	}
	if shallow, err := r.IsShallow(ctx); err != nil || shallow {
		t.Errorf("IsShallow after unshallowing = %v, %v", shallow, err)
	}
}

func TestEnsureHistoryImpossible(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for name, breakIt := range map[string]func(clone string){
		"remote gone": func(clone string) {
			url := strings.TrimPrefix(gitT(t, clone, "remote", "get-url", "origin"), "file://")
			if err := os.RemoveAll(url); err != nil {
				t.Fatal(err)
			}
		},
		"no remote": func(clone string) { gitT(t, clone, "remote", "remove", "origin") },
	} {
		t.Run(name, func(t *testing.T) {
			clone, _, base, head := shallowFixture(t, 35)
			breakIt(clone)
			r := openT(t, clone)
			_, err := r.EnsureHistory(ctx, base, head)
			wantErr(t, err, ErrShallow)
			for _, fix := range []string{"fetch-depth: 0", "GIT_DEPTH: 0"} {
				if !strings.Contains(err.Error(), fix) {
					t.Errorf("error %q does not name %q", err, fix)
				}
			}
		})
	}
}

func TestEnsureHistoryComplete(t *testing.T) {
	t.Parallel()
	dir := initRepo(t)
	base := commitFiles(t, dir, "one", map[string]string{"a": "a\n"})
	head := commitFiles(t, dir, "two", map[string]string{"a": "b\n"})
	r := openT(t, dir)
	if notes, err := r.EnsureHistory(context.Background(), base, head); err != nil || notes != nil {
		t.Errorf("EnsureHistory = %q, %v; want nothing to do", notes, err)
	}
	_, err := r.EnsureHistory(context.Background(), "-x", head)
	wantErr(t, err, ErrBadRef)
	_, err = r.EnsureHistory(context.Background(), "nope", head)
	wantErr(t, err, ErrUnknownRef)
}

func TestEnsureHistoryUnrelated(t *testing.T) {
	t.Parallel()
	dir := initRepo(t)
	head := commitFiles(t, dir, "one", map[string]string{"a": "a\n"})
	other := initRepo(t)
	commitFiles(t, other, "other", map[string]string{"z": "z\n"})
	gitT(t, dir, "fetch", "-q", other, "main:other")
	r := openT(t, dir)
	_, err := r.EnsureHistory(context.Background(), "other", head)
	wantErr(t, err, ErrNoMergeBase)
}

func TestEnsureParents(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clone, _, _, head := shallowFixture(t, 3)
	r := openT(t, clone)
	notes, err := r.EnsureParents(ctx, "HEAD")
	if err != nil || len(notes) != 1 {
		t.Fatalf("EnsureParents = %q, %v", notes, err)
	}
	parent, err := r.FirstParent(ctx, head)
	if err != nil || parent == "" {
		t.Fatalf("FirstParent after EnsureParents = %q, %v", parent, err)
	}
	if notes, err := r.EnsureParents(ctx, head); err != nil || notes != nil {
		t.Errorf("second EnsureParents = %q, %v; want nothing to do", notes, err)
	}
	gitT(t, clone, "remote", "remove", "origin")
	_, err = r.EnsureParents(ctx, parent)
	wantErr(t, err, ErrShallow)
}
