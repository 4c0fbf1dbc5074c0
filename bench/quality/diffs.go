package main

import (
	"context"
	"sync"

	"github.com/ocr-ci/ocr/internal/infra/git"
)

// diffs reads each reviewed diff once per run: every setting reviews the
// same changes, and the posting plan of each review needs the diff
// (opening the clone and running git diff is three git processes).
type diffs struct {
	mu   sync.Mutex
	read map[diffKey]*readDiff
}

// diffKey names one diff: a clone and the reviewed range.
type diffKey struct{ dir, base, head string }

// readDiff is one diff, read by the first review that needs it.
type readDiff struct {
	once sync.Once
	diff []byte
	err  error
}

// get returns the diff base..head of the clone at dir, reading it the
// first time it is asked for.
func (d *diffs) get(ctx context.Context, dir, base, head string) ([]byte, error) {
	d.mu.Lock()
	if d.read == nil {
		d.read = map[diffKey]*readDiff{}
	}
	k := diffKey{dir, base, head}
	r, ok := d.read[k]
	if !ok {
		r = &readDiff{}
		d.read[k] = r
	}
	d.mu.Unlock()
	r.once.Do(func() { r.diff, r.err = readGitDiff(ctx, dir, base, head) })
	return r.diff, r.err
}

// readGitDiff runs ocr's git diff base..head in the clone at dir.
func readGitDiff(ctx context.Context, dir, base, head string) ([]byte, error) {
	repo, err := git.Open(ctx, dir, git.Options{})
	if err != nil {
		return nil, err
	}
	defer func() { _ = repo.Close() }()
	return repo.Diff(ctx, base, head)
}
