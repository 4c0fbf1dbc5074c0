package git

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ResolveCommit returns the full name of the commit ref points to. A ref
// beginning with '-' fails with ErrBadRef before git runs; a ref that does
// not exist fails with ErrUnknownRef.
func (r *Repo) ResolveCommit(ctx context.Context, ref string) (string, error) {
	if err := r.needRefs(ref); err != nil {
		return "", err
	}
	sha, ok, err := r.commitOf(ctx, r.mapRef(ref))
	if err != nil {
		return "", fmt.Errorf("could not resolve %q: %w", ref, err)
	}
	if !ok && ref == "HEAD" {
		return "", fmt.Errorf("HEAD has no commit yet (git commit first): %w", ErrUnknownRef)
	}
	if !ok {
		return "", r.unknownRef(ctx, ref)
	}
	return sha, nil
}

// revParse runs rev-parse --verify; ok is false when the name does not
// resolve (exit status 1).
func (r *Repo) revParse(ctx context.Context, name string) (sha string, ok bool, err error) {
	out, err := r.run(ctx, call{args: []string{"rev-parse", "--verify", "--quiet", "--end-of-options", name}})
	if exitCode(err) == 1 {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	return strings.TrimSpace(string(out)), true, nil
}

// MergeBase returns the best common ancestor of commits a and b. Commits
// without one fail with ErrNoMergeBase. The answer for two full SHAs is
// remembered until the next fetch (change loading, EnsureHistory and the
// incremental review ask about the same pair).
func (r *Repo) MergeBase(ctx context.Context, a, b string) (string, error) {
	if err := r.needRefs(a, b); err != nil {
		return "", err
	}
	key := a + " " + b
	if v, ok := r.bases.Load(key); ok {
		return v.(string), nil
	}
	out, err := r.run(ctx, call{args: []string{"merge-base", "--end-of-options", a, b}})
	if exitCode(err) == 1 && len(out) == 0 {
		return "", fmt.Errorf("%s and %s share no history here (in a shallow clone, fetch more with fetch-depth: 0 or GIT_DEPTH: 0): %w", a, b, ErrNoMergeBase)
	}
	if err != nil {
		return "", fmt.Errorf("could not find the merge base of %s and %s: %w", a, b, err)
	}
	base := strings.TrimSpace(string(out))
	if isFullSHA(a) && isFullSHA(b) {
		r.bases.Store(key, base)
	}
	return base, nil
}

// isShallowCommit reports whether sha is a boundary of a shallow clone.
func (r *Repo) isShallowCommit(sha string) bool {
	data, err := os.ReadFile(filepath.Join(r.commonDir, "shallow"))
	if err != nil {
		return false
	}
	for _, line := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(line) == sha {
			return true
		}
	}
	return false
}

// Head returns the commit HEAD points to; unborn is true (and sha "") in
// a repository without commits on the current branch.
func (r *Repo) Head(ctx context.Context) (sha string, unborn bool, err error) {
	if err := r.needRepo(); err != nil {
		return "", false, err
	}
	sha, ok, err := r.commitOf(ctx, "HEAD")
	if err != nil {
		return "", false, fmt.Errorf("could not read HEAD: %w", err)
	}
	return sha, !ok, nil
}

// hasCommit reports whether name resolves to a commit present locally.
func (r *Repo) hasCommit(ctx context.Context, name string) (bool, error) {
	_, ok, err := r.commitOf(ctx, name)
	return ok, err
}
