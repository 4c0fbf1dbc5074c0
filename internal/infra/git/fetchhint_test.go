package git

import (
	"context"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// hintedFetch returns the `git fetch ...` command an unknown-ref error
// suggests.
func hintedFetch(t *testing.T, err error) []string {
	t.Helper()
	if !errors.Is(err, ErrUnknownRef) {
		t.Fatalf("error %v, want ErrUnknownRef", err)
	}
	_, rest, ok := strings.Cut(err.Error(), "`git fetch ")
	cmd, _, _ := strings.Cut(rest, "`")
	if !ok {
		t.Fatalf("error %q suggests no git fetch", err)
	}
	return strings.Fields(cmd)
}

// TestFetchHintIsAcceptedByGit: for a missing origin/release-1.0 the
// suggested command fetches release-1.0 from origin (git refuses
// `git fetch origin origin/release-1.0`) into origin/release-1.0, and
// running it makes the ref resolve, in a single-branch clone too (whose
// refspec covers only its branch, as in CI); a remote named other than
// origin is recognised by `git remote`.
func TestFetchHintIsAcceptedByGit(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	origin := initRepo(t)
	commitFiles(t, origin, "one", map[string]string{"a.txt": "1"})
	clone := filepath.Join(t.TempDir(), "clone")
	gitT(t, origin, "clone", "-q", "--single-branch", "file://"+origin, clone)
	gitT(t, origin, "checkout", "-q", "-b", "release-1.0")
	commitFiles(t, origin, "two", map[string]string{"a.txt": "2"})
	gitT(t, clone, "remote", "add", "upstream", "file://"+origin)

	for _, tc := range []struct{ ref, remote, name string }{
		{"origin/release-1.0", "origin", "release-1.0:refs/remotes/origin/release-1.0"},
		{"refs/remotes/origin/release-1.0", "origin", "release-1.0:refs/remotes/origin/release-1.0"},
		{"upstream/release-1.0", "upstream", "release-1.0:refs/remotes/upstream/release-1.0"},
		{"release-1.0", "origin", "release-1.0:refs/heads/release-1.0"},
	} {
		_, err := openT(t, clone).ResolveCommit(ctx, tc.ref)
		args := hintedFetch(t, err)
		if len(args) != 2 || args[0] != tc.remote || args[1] != tc.name {
			t.Errorf("%s: hint `git fetch %s`, want `git fetch %s %s`", tc.ref, strings.Join(args, " "), tc.remote, tc.name)
		}
		if strings.Contains(err.Error(), "shallow") {
			t.Errorf("%s: a full clone is called shallow: %v", tc.ref, err)
		}
	}
	// The hints work: git accepts them and the refs then resolve.
	for _, ref := range []string{"origin/release-1.0", "upstream/release-1.0", "release-1.0"} {
		_, err := openT(t, clone).ResolveCommit(ctx, ref)
		gitT(t, clone, append([]string{"fetch", "-q"}, hintedFetch(t, err)...)...)
		if _, err := openT(t, clone).ResolveCommit(ctx, ref); err != nil {
			t.Errorf("%s after the suggested fetch: %v", ref, err)
		}
	}
	// What the old hint said, git refuses.
	if out, err := exec.CommandContext(ctx, "git", "-C", clone, "fetch", "-q", "origin", "origin/release-1.0").CombinedOutput(); err == nil {
		t.Errorf("git accepted `git fetch origin origin/release-1.0`: %s", out)
	}
}

// TestFetchHintInAShallowClone: a missing ref in a shallow clone is named
// as such, with the deepen command and both CI settings.
func TestFetchHintInAShallowClone(t *testing.T) {
	t.Parallel()
	clone, _, _, _ := shallowFixture(t, 5)
	_, err := openT(t, clone).ResolveCommit(context.Background(), "origin/release-1.0")
	if args := hintedFetch(t, err); strings.Join(args, " ") != "origin release-1.0:refs/remotes/origin/release-1.0" {
		t.Errorf("hint `git fetch %s`, want `git fetch origin release-1.0:refs/remotes/origin/release-1.0`", strings.Join(args, " "))
	}
	for _, want := range []string{"shallow clone", "`git fetch --deepen=N origin`", "fetch-depth: 0", "GIT_DEPTH: 0"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
}

// TestFetchHintWithoutARemote: a repository with no remote (git init, a
// newcomer's scratch repository) is told to check the name, not to fetch
// from an origin it does not have, nor to set CI options.
func TestFetchHintWithoutARemote(t *testing.T) {
	t.Parallel()
	repo := initRepo(t)
	commitFiles(t, repo, "one", map[string]string{"a.txt": "1"})
	_, err := openT(t, repo).ResolveCommit(context.Background(), "no-such-ref")
	if !errors.Is(err, ErrUnknownRef) {
		t.Fatalf("error %v, want ErrUnknownRef", err)
	}
	for _, bad := range []string{"git fetch", "origin", "fetch-depth"} {
		if strings.Contains(err.Error(), bad) {
			t.Errorf("error %q suggests %q in a repository without remotes", err, bad)
		}
	}
	if !strings.Contains(err.Error(), "no remote") || !strings.Contains(err.Error(), "`git branch -a`") {
		t.Errorf("error %q does not say there is no remote and how to check the name", err)
	}
}

// TestFetchHintForARelativeRef: HEAD~3 cannot be fetched by name (git
// refuses `git fetch origin HEAD~3`); in a shallow clone the hint deepens
// the history by the commits the ref counts back, and running it makes the
// ref resolve; in a full clone it says the history is shorter.
func TestFetchHintForARelativeRef(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clone, _, _, _ := shallowFixture(t, 5)
	_, err := openT(t, clone).ResolveCommit(ctx, "HEAD~3")
	args := hintedFetch(t, err)
	if strings.Join(args, " ") != "--deepen=3 origin" {
		t.Errorf("hint `git fetch %s`, want `git fetch --deepen=3 origin`", strings.Join(args, " "))
	}
	gitT(t, clone, append([]string{"fetch", "-q"}, args...)...)
	if _, err := openT(t, clone).ResolveCommit(ctx, "HEAD~3"); err != nil {
		t.Errorf("HEAD~3 after the suggested fetch: %v", err)
	}
	if out, err := exec.CommandContext(ctx, "git", "-C", clone, "fetch", "-q", "origin", "HEAD~3").CombinedOutput(); err == nil {
		t.Errorf("git accepted `git fetch origin HEAD~3`: %s", out)
	}
	repo := initRepo(t)
	commitFiles(t, repo, "one", map[string]string{"a.txt": "1"})
	_, err = openT(t, repo).ResolveCommit(ctx, "HEAD~3")
	if !errors.Is(err, ErrUnknownRef) || strings.Contains(err.Error(), "git fetch") || !strings.Contains(err.Error(), "fewer commits") {
		t.Errorf("full clone: %v; want fewer commits, no fetch", err)
	}
}

// TestCountBack: the steps a relative ref takes back.
func TestCountBack(t *testing.T) {
	t.Parallel()
	for ref, want := range map[string]int{"HEAD~3": 3, "HEAD^^": 2, "main~2^": 3, "HEAD^2": 1, "HEAD@{1}": 0, "HEAD^{tree}": 0, "x~y": 0} {
		if got := countBack(ref); got != want {
			t.Errorf("countBack(%q) = %d, want %d", ref, got, want)
		}
	}
}
