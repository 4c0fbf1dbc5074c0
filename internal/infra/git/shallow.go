package git

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// IsShallow reports whether the repository is a shallow clone.
func (r *Repo) IsShallow(ctx context.Context) (bool, error) {
	if err := r.needRepo(); err != nil {
		return false, err
	}
	out, err := r.run(ctx, call{args: []string{"rev-parse", "--is-shallow-repository"}})
	if err != nil {
		return false, fmt.Errorf("could not tell whether the clone is shallow: %w", err)
	}
	return strings.TrimSpace(string(out)) == "true", nil
}

// EnsureHistory makes sure commits base and head are present and have a
// merge base, fetching from the remote when they do not: missing commits
// are fetched by SHA, then a shallow clone is deepened by 50, 200 and 1000
// commits and finally unshallowed. It returns a note for each action for
// the caller to print. Fetching only adds objects; with EnsureParents it
// is the one operation of this package that writes to the repository.
// When the history cannot be completed the error names the CI setting
// that fixes it.
func (r *Repo) EnsureHistory(ctx context.Context, base, head string) (notes []string, err error) {
	if err := r.needRefs(base, head); err != nil {
		return nil, err
	}
	h := &history{repo: r, refs: []string{base, head}}
	if err := h.findMissing(ctx); err != nil {
		return nil, err
	}
	if len(h.missing) == 0 {
		if ok, err := r.merged(ctx, base, head); ok || err != nil {
			return nil, err
		}
	}
	if err := h.prepare(ctx); err != nil {
		return nil, err
	}
	err = h.complete(ctx)
	return h.notes, err
}

// findMissing lists the refs whose commits are not present. Only a full
// SHA can be asked of a remote: a missing name is ErrUnknownRef.
func (h *history) findMissing(ctx context.Context) error {
	for _, ref := range h.refs {
		ok, err := h.repo.hasCommit(ctx, ref)
		switch {
		case err != nil:
			return err
		case !ok && !isFullSHA(ref):
			return h.repo.unknownRef(ctx, ref)
		case !ok:
			h.missing = append(h.missing, ref)
		}
	}
	return nil
}

// prepare finds whether the clone is shallow and the remote to fetch from.
func (h *history) prepare(ctx context.Context) error {
	var err error
	if h.shallow, err = h.repo.IsShallow(ctx); err != nil {
		return err
	}
	if !h.shallow && len(h.missing) == 0 {
		return fmt.Errorf("%s and %s share no history: %w", h.refs[0], h.refs[1], ErrNoMergeBase)
	}
	if h.remote, err = h.repo.remote(ctx); err != nil {
		return h.fail(err)
	}
	return nil
}

// historyOK reports whether both commits exist and have a merge base.
// Commits found present are remembered (commitOf), so after each fetch
// only the ones still missing cost a git call.
func (r *Repo) historyOK(ctx context.Context, base, head string) (bool, error) {
	for _, ref := range []string{base, head} {
		if ok, err := r.hasCommit(ctx, ref); !ok || err != nil {
			return false, err
		}
	}
	return r.merged(ctx, base, head)
}

// merged reports whether base and head have a merge base.
func (r *Repo) merged(ctx context.Context, base, head string) (bool, error) {
	_, err := r.MergeBase(ctx, base, head)
	if errors.Is(err, ErrNoMergeBase) {
		return false, nil
	}
	return err == nil, err
}

// remote picks the remote to fetch from: origin, or the only remote.
func (r *Repo) remote(ctx context.Context) (string, error) {
	remotes, err := r.remotes(ctx)
	if err != nil {
		return "", err
	}
	for _, name := range remotes {
		if name == "origin" {
			return name, nil
		}
	}
	if len(remotes) == 1 {
		return remotes[0], nil
	}
	return "", errors.New("the repository has no remote named origin to fetch the missing history from")
}

// remotes lists the configured remotes (`git remote`).
func (r *Repo) remotes(ctx context.Context) ([]string, error) {
	out, err := r.run(ctx, call{args: []string{"remote"}})
	if err != nil {
		return nil, fmt.Errorf("could not list remotes: %w", err)
	}
	return strings.Fields(string(out)), nil
}

// fail explains how to make the history available.
func (h *history) fail(err error) error {
	if h.shallow {
		return fmt.Errorf("could not complete the history of this shallow clone (set fetch-depth: 0 in actions/checkout, or GIT_DEPTH: 0 in GitLab CI): %w: %w", err, ErrShallow)
	}
	return fmt.Errorf("could not fetch %s (fetch the base and head commits first, or set fetch-depth: 0 / GIT_DEPTH: 0 in CI): %w: %w",
		strings.Join(h.missing, " and "), err, ErrUnknownRef)
}

// history is one EnsureHistory run.
type history struct {
	repo    *Repo
	remote  string
	shallow bool
	refs    []string // base, head
	missing []string // of refs, those not present
	notes   []string
}

// complete fetches missing commits, then deepens until a merge base shows.
func (h *history) complete(ctx context.Context) error {
	if err := h.fetchMissing(ctx); err != nil {
		return err
	}
	if ok, err := h.repo.historyOK(ctx, h.refs[0], h.refs[1]); ok || err != nil {
		return err
	}
	if !h.shallow {
		return fmt.Errorf("%s and %s share no history: %w", h.refs[0], h.refs[1], ErrNoMergeBase)
	}
	for _, n := range []int{50, 200, 1000} { // then the whole history
		if err := h.fetch(ctx, fmt.Sprintf("--deepen=%d", n), h.wants()...); err != nil {
			return h.fail(err)
		}
		h.notes = append(h.notes, fmt.Sprintf("deepened the shallow clone by %d commits from %s", n, h.remote))
		if ok, err := h.repo.historyOK(ctx, h.refs[0], h.refs[1]); ok || err != nil {
			return err
		}
	}
	if err := h.fetch(ctx, "--unshallow", h.wants()...); err != nil {
		return h.fail(err)
	}
	h.notes = append(h.notes, "fetched the full history from "+h.remote+" (unshallowed the clone)")
	if ok, err := h.repo.historyOK(ctx, h.refs[0], h.refs[1]); ok || err != nil {
		return err
	}
	return fmt.Errorf("%s and %s share no history even with the full history: %w", h.refs[0], h.refs[1], ErrNoMergeBase)
}

// fetchMissing fetches base or head by SHA when it is not present.
func (h *history) fetchMissing(ctx context.Context) error {
	depth := ""
	if h.shallow {
		depth = "--depth=1"
	}
	for _, ref := range h.missing {
		if err := h.fetch(ctx, depth, ref); err != nil {
			return h.fail(fmt.Errorf("could not fetch %s from %s: %w", ref, h.remote, err))
		}
		h.notes = append(h.notes, fmt.Sprintf("fetched commit %.12s from %s", ref, h.remote))
	}
	return nil
}

// fetch runs git fetch from the remote quietly, without tags, submodules
// or maintenance, with option (may be "") for the given object names (none:
// the remote's configured refspec).
func (h *history) fetch(ctx context.Context, option string, wants ...string) error {
	args := []string{"fetch", "--quiet", "--no-tags", "--no-recurse-submodules",
		"--no-write-fetch-head", "--no-auto-gc"}
	if option != "" {
		args = append(args, option)
	}
	args = append(append(args, "--end-of-options", h.remote), wants...)
	_, err := h.repo.run(ctx, call{args: args, timeout: h.repo.opt.FetchTimeout})
	h.repo.fetched() // even a failed fetch may have added objects
	return err
}

// wants are base and head where they are full SHAs; names of local refs
// cannot be asked of the remote.
func (h *history) wants() []string {
	var w []string
	for _, ref := range h.refs {
		if isFullSHA(ref) {
			w = append(w, ref)
		}
	}
	return w
}

// isFullSHA reports whether s is a full SHA-1 or SHA-256 object name.
func isFullSHA(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	return strings.Trim(strings.ToLower(s), "0123456789abcdef") == ""
}

// EnsureParents fetches the parents of commit when a shallow clone has cut
// them off (a depth-1 checkout of a push), so that FirstParent can answer.
// It returns a note when it fetched something.
func (r *Repo) EnsureParents(ctx context.Context, commit string) (notes []string, err error) {
	sha, err := r.ResolveCommit(ctx, commit)
	if err != nil || !r.isShallowCommit(sha) {
		return nil, err
	}
	h := &history{repo: r, refs: []string{sha}, shallow: true}
	if h.remote, err = r.remote(ctx); err != nil {
		return nil, h.fail(err)
	}
	if err := h.fetch(ctx, "--deepen=1", sha); err != nil {
		return nil, h.fail(err)
	}
	return []string{fmt.Sprintf("deepened the shallow clone by 1 commit from %s to fetch the parents of %.12s", h.remote, sha)}, nil
}

// RemoteURL is the URL of the remote name (`git remote get-url`).
func (r *Repo) RemoteURL(ctx context.Context, name string) (string, error) {
	out, err := r.run(ctx, call{args: []string{"remote", "get-url", "--end-of-options", name}})
	if err != nil {
		return "", fmt.Errorf("could not read the URL of the remote %q: %w", name, err)
	}
	return strings.TrimSpace(string(out)), nil
}
