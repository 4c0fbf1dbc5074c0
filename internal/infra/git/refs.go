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
// without one fail with ErrNoMergeBase.
func (r *Repo) MergeBase(ctx context.Context, a, b string) (string, error) {
	if err := r.needRefs(a, b); err != nil {
		return "", err
	}
	out, err := r.run(ctx, call{args: []string{"merge-base", "--end-of-options", a, b}})
	if exitCode(err) == 1 && len(out) == 0 {
		return "", fmt.Errorf("%s and %s share no history here (in a shallow clone, fetch more with fetch-depth: 0 or GIT_DEPTH: 0): %w", a, b, ErrNoMergeBase)
	}
	if err != nil {
		return "", fmt.Errorf("could not find the merge base of %s and %s: %w", a, b, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// FirstParent returns the first parent of commit, or "" for a root commit.
// A commit whose parents were cut off by a shallow clone fails with
// ErrShallow rather than passing for a root.
func (r *Repo) FirstParent(ctx context.Context, commit string) (string, error) {
	sha, err := r.ResolveCommit(ctx, commit)
	if err != nil {
		return "", err
	}
	out, err := r.run(ctx, call{args: []string{"rev-list", "--parents", "--max-count=1", "--end-of-options", sha, "--"}})
	if err != nil {
		return "", fmt.Errorf("could not read the parents of %s: %w", commit, err)
	}
	fields := strings.Fields(string(out))
	if len(fields) >= 2 {
		return fields[1], nil
	}
	if r.isShallowCommit(sha) {
		return "", fmt.Errorf("the parents of %s are not in this clone: %w", commit, ErrShallow)
	}
	return "", nil
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
	sha, ok, err := r.revParse(ctx, "HEAD^{commit}")
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

// commitOf resolves name to the commit it points to. A commit found once
// stays (fetching only adds objects), and a full object name always means
// the same object, so answers for full names are remembered: the runner,
// EnsureHistory, EnsureParents and FirstParent ask about the same SHAs.
func (r *Repo) commitOf(ctx context.Context, name string) (sha string, ok bool, err error) {
	if v, ok := r.commits.Load(name); ok {
		return v.(string), true, nil
	}
	sha, ok, err = r.revParse(ctx, name+"^{commit}")
	if ok {
		r.commits.Store(sha, sha)
		if isFullSHA(name) {
			r.commits.Store(name, sha)
		}
	}
	return sha, ok, err
}
