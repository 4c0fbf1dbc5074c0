package git

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

// unknownRef wraps ErrUnknownRef with the ref and a fetch command that git
// accepts and after which ref resolves: `git fetch origin
// release-1.0:refs/remotes/origin/release-1.0` for origin/release-1.0 (git
// refuses `git fetch origin origin/release-1.0`), and, in a shallow clone,
// how to deepen it.
func (r *Repo) unknownRef(ctx context.Context, ref string) error {
	if isRelative(ref) {
		return r.unknownRelative(ctx, ref)
	}
	remote, name := r.fetchSource(ctx, ref)
	if remote == "" {
		return fmt.Errorf("%q is not a commit in this repository, which has no remote to fetch it from "+
			"(check the name: `git branch -a` lists the branches, `git log --oneline` the commits): %w", ref, ErrUnknownRef)
	}
	fetch := fmt.Sprintf("`git fetch %s %s`", remote, fetchSpec(remote, ref, name))
	if shallow, err := r.IsShallow(ctx); err == nil && shallow {
		return fmt.Errorf("%q is not a commit in this shallow clone (fetch it with %s, then deepen the history with "+
			"`git fetch --deepen=N %s` until base and head meet, or `git fetch --unshallow %s`; in CI set fetch-depth: 0 "+
			"in actions/checkout (GitHub) or GIT_DEPTH: 0 (GitLab CI)): %w", ref, fetch, remote, remote, ErrUnknownRef)
	}
	return fmt.Errorf("%q is not a commit in this repository (fetch it first: %s; in CI use fetch-depth: 0 "+
		"in actions/checkout (GitHub) or GIT_DEPTH: 0 (GitLab CI)): %w", ref, fetch, ErrUnknownRef)
}

// isRelative reports a ref that counts back from another (HEAD~3,
// main^2, @{1}): no remote knows it by that name, so it cannot be fetched.
func isRelative(ref string) bool {
	return !isFullSHA(ref) && strings.ContainsAny(ref, "~^@{")
}

// unknownRelative explains a relative ref that does not resolve: in a
// shallow clone the history is too short, so deepen it (by the commits the
// ref counts back, or all of it); in a full clone there are not that many
// commits.
func (r *Repo) unknownRelative(ctx context.Context, ref string) error {
	remote, _ := r.fetchSource(ctx, ref)
	shallow, err := r.IsShallow(ctx)
	if remote == "" || err != nil || !shallow {
		return fmt.Errorf("%q is not a commit in this repository: its history has fewer commits than the ref counts back "+
			"(`git log --oneline` lists them): %w", ref, ErrUnknownRef)
	}
	deepen := "--unshallow"
	if n := countBack(ref); n > 0 {
		deepen = fmt.Sprintf("--deepen=%d", n)
	}
	return fmt.Errorf("%q is not a commit in this shallow clone: it counts back further than the history fetched "+
		"(deepen it with `git fetch %s %s`, or `git fetch --unshallow %s`; in CI set fetch-depth: 0 "+
		"in actions/checkout (GitHub) or GIT_DEPTH: 0 (GitLab CI)): %w", ref, deepen, remote, remote, ErrUnknownRef)
}

// countBack is how many first-parent steps ref takes at most (HEAD~3 is 3,
// HEAD^^ is 2, HEAD~2^ is 3), or 0 when it cannot tell (@{1}, HEAD^{tree}).
func countBack(ref string) int {
	i := strings.IndexAny(ref, "~^")
	if i < 0 || strings.ContainsAny(ref, "@{:") {
		return 0
	}
	n, rest := 0, ref[i:]
	for rest != "" {
		op := rest[0]
		if op != '~' && op != '^' {
			return 0
		}
		rest = rest[1:]
		digits := len(rest) - len(strings.TrimLeft(rest, "0123456789"))
		k := 1
		if digits > 0 {
			k, _ = strconv.Atoi(rest[:digits])
			rest = rest[digits:]
		}
		if op == '^' && k > 0 {
			k = 1 // ^2 is the second parent, one step back
		}
		n += k
	}
	return n
}

// fetchSpec is what to fetch so that ref resolves afterwards, even in a
// single-branch clone (actions/checkout, GitLab) whose configured refspec
// does not cover it: remote/x is fetched into refs/remotes/remote/x, a
// branch name into the branch, a commit name as it is.
func fetchSpec(remote, ref, name string) string {
	switch {
	case isFullSHA(ref) || strings.ContainsAny(ref, "~^:@{") || name == "HEAD":
		return name
	case name != strings.TrimPrefix(ref, "refs/heads/"):
		return name + ":refs/remotes/" + remote + "/" + name
	}
	return name + ":refs/heads/" + name
}

// fetchSource splits ref into the remote to fetch from and the name the
// remote knows it by: origin/x (or refs/remotes/origin/x) is x on origin,
// for any configured remote; any other ref is fetched as it is from
// origin, or the only remote. A repository without remotes has no
// remote to fetch from: remote is "".
func (r *Repo) fetchSource(ctx context.Context, ref string) (remote, name string) {
	remotes, err := r.remotes(ctx)
	switch {
	case err != nil:
		remotes = []string{"origin"}
	case len(remotes) == 0:
		return "", ref
	}
	bare := strings.TrimPrefix(ref, "refs/remotes/")
	for _, rm := range remotes {
		if rest, ok := strings.CutPrefix(bare, rm+"/"); ok && rest != "" {
			return rm, rest
		}
	}
	remote = "origin"
	if len(remotes) == 1 {
		remote = remotes[0]
	}
	return remote, strings.TrimPrefix(ref, "refs/heads/")
}
