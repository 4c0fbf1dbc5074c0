package git

import (
	"bytes"
	"context"
	"fmt"
	"strings"
)

// commitOf resolves name to the commit it points to. A commit found once
// stays (fetching only adds objects), and a full object name always means
// the same object, so answers for full names are remembered: the runner,
// EnsureHistory, EnsureParents and FirstParent ask about the same SHAs.
func (r *Repo) commitOf(ctx context.Context, name string) (sha string, ok bool, err error) {
	if v, ok := r.commits.Load(name); ok {
		return v.(string), true, nil
	}
	sha, ok, err = r.batchCommit(ctx, name)
	if !ok && err == nil {
		sha, ok, err = r.revParse(ctx, name+"^{commit}")
	}
	if ok {
		r.commits.Store(sha, sha)
		if isFullSHA(name) {
			r.commits.Store(name, sha)
		}
	}
	return sha, ok, err
}

// batchCommit asks the running cat-file process for name^{commit}, which
// costs no new process. ok is false (with a nil error) whenever rev-parse
// should decide instead: a name batch mode cannot take, one it does not
// find or finds ambiguous, or a cat-file process that fails; rev-parse then
// gives the answer and the error messages it always gave.
func (r *Repo) batchCommit(ctx context.Context, name string) (sha string, ok bool, err error) {
	if !batchable(name) {
		return "", false, nil
	}
	obj, err := r.peel(ctx, name)
	if ctx.Err() != nil {
		return "", false, ctx.Err()
	}
	if err != nil || obj.kind != "commit" || obj.oid == "" {
		return "", false, nil
	}
	return obj.oid, true, nil
}

// peel reads the commit name^{commit} through cat-file within the read
// timeout.
func (r *Repo) peel(ctx context.Context, name string) (object, error) {
	cctx, cancel := context.WithTimeout(ctx, r.opt.Timeout)
	defer cancel()
	return r.batch.get(cctx, name+"^{commit}")
}

// batchable reports whether name is safe to give cat-file --batch: a ref
// name, an object name, or one counted back from them (HEAD~2, main^).
// Anything else goes to rev-parse: cat-file dies on "@{u}" without an
// upstream (and a dead process answers nothing else), reads "x:path" as a
// path (and follows its symlinks), and knows no "^main" or ranges.
func batchable(name string) bool {
	if strings.HasPrefix(name, "^") || strings.Contains(name, "..") {
		return false
	}
	for _, c := range name {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
			strings.ContainsRune("/._-~^+@", c)
		if !ok {
			return false
		}
	}
	return name != ""
}

// FirstParent returns the first parent of commit, or "" for a root commit.
// A commit whose parents were cut off by a shallow clone fails with
// ErrShallow rather than passing for a root. The parent is read from the
// commit object through the cat-file process, not by a new git process.
func (r *Repo) FirstParent(ctx context.Context, commit string) (string, error) {
	sha, err := r.ResolveCommit(ctx, commit)
	if err != nil {
		return "", err
	}
	if r.isShallowCommit(sha) {
		return "", fmt.Errorf("the parents of %s are not in this clone: %w", commit, ErrShallow)
	}
	obj, err := r.peel(ctx, sha)
	if err == nil && obj.kind != "commit" {
		err = fmt.Errorf("%s is a %s, not a commit", sha, obj.kind)
	}
	if err != nil {
		return "", fmt.Errorf("could not read the parents of %s: %w", commit, err)
	}
	return firstParent(obj.data), nil
}

// firstParent reads the first "parent" line of a commit object's header,
// or "" when it has none (a root commit).
// https://git-scm.com/docs/signature-format#_commit_signatures
func firstParent(data []byte) string {
	header, _, _ := bytes.Cut(data, []byte("\n\n"))
	for _, line := range strings.Split(string(header), "\n") {
		if p, ok := strings.CutPrefix(line, "parent "); ok {
			return p
		}
	}
	return ""
}

// fetched forgets what a fetch may change: merge bases (a deeper history
// can have one where there was none, or a better one) and the cat-file
// process, which is restarted on its next request so that it sees the
// new objects and refs.
func (r *Repo) fetched() {
	r.bases.Clear()
	if err := r.batch.close(); err != nil {
		r.logf("could not stop git cat-file after a fetch: %v", err)
	}
}
