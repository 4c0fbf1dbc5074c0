// Package change says what is reviewed: the change of a review (the diff
// of a range, a commit or the work tree, cut to the diff budget) or of a
// scan (every selected file presented whole as an added file), parsed into
// anchor files with each file's own diff text.
package change

import (
	"context"
	"errors"
	"fmt"

	"github.com/ocr-ci/ocr/anchor/udiff"
	"github.com/ocr-ci/ocr/internal/infra/git"
)

// Change is the change under review: the parsed diff and where it came from.
type Change struct {
	// Mode is "range", "commit" or "workspace".
	Mode string
	// Base is the commit the diff starts from (the merge base in range mode,
	// the first parent or the empty tree in commit mode, HEAD in workspace mode).
	Base string
	// Head is the reviewed commit; empty in workspace mode (the work tree).
	Head string
	// Files is the parsed diff.
	Files []udiff.File
	// Diffs maps each file's path (new and old) to its unified diff text.
	Diffs map[string]string
	// Notes say what was done to make the range available (shallow clones).
	Notes []string
	// OverBudget are the files whose diff was left out, unparsed, because
	// the diff budget was spent (see Request.Budget), with the size of that diff.
	OverBudget map[string]int64
	budget     int64
}

// Request says which change to load, as the configuration gives it.
type Request struct {
	// Mode is "range", "commit" or "workspace".
	Mode string
	// From and To are the range's refs (range mode); FromIsGuess says From
	// is a guess (a new branch's default branch), so a missing From falls
	// back to reviewing To against its parent.
	From, To    string
	FromIsGuess bool
	// Commit is the reviewed commit in commit mode.
	Commit string
	// Budget is how many bytes of diff are parsed at most (see
	// config.Config.DiffBudget).
	Budget int64
}

// Load computes the diff the request asks for.
func Load(ctx context.Context, repo *git.Repo, c Request) (*Change, error) {
	ch := &Change{Mode: c.Mode, budget: c.Budget}
	var err error
	switch ch.Mode {
	case "range":
		err = ch.loadRange(ctx, repo, c.From, c.To)
		if err != nil && c.FromIsGuess && errors.Is(err, git.ErrUnknownRef) {
			// A new branch's base is a guess (the default branch), which a
			// shallow checkout may not have: review the pushed head commit.
			*ch = Change{Mode: "commit", budget: ch.budget, Notes: append(ch.Notes, fmt.Sprintf("%s is not available: reviewing %s against its parent", c.From, c.To))}
			err = ch.loadCommit(ctx, repo, c.To)
		}
	case "commit":
		err = ch.loadCommit(ctx, repo, c.Commit)
	default:
		err = ch.loadWorkspace(ctx, repo)
	}
	return ch, err
}

func (ch *Change) loadRange(ctx context.Context, repo *git.Repo, from, to string) error {
	err := ch.resolveRange(ctx, repo, from, to)
	if errors.Is(err, git.ErrUnknownRef) || errors.Is(err, git.ErrNoMergeBase) {
		// Missing history, as in a shallow clone: fetch it, then try again.
		notes, herr := repo.EnsureHistory(ctx, from, to)
		ch.Notes = append(ch.Notes, notes...)
		if herr != nil {
			return herr
		}
		err = ch.resolveRange(ctx, repo, from, to)
	}
	if err != nil {
		return err
	}
	return ch.parseWithin(repo.DiffTextWithin(ctx, ch.Base, ch.Head, ch.budget))
}

// resolveRange sets Head to the commit of to and Base to the merge base.
func (ch *Change) resolveRange(ctx context.Context, repo *git.Repo, from, to string) error {
	base, err := repo.ResolveCommit(ctx, from)
	if err != nil {
		return fmt.Errorf("could not resolve --from: %w", err)
	}
	if ch.Head, err = repo.ResolveCommit(ctx, to); err != nil {
		return fmt.Errorf("could not resolve --to: %w", err)
	}
	if ch.Base, err = repo.MergeBase(ctx, base, ch.Head); err != nil {
		return fmt.Errorf("could not find the merge base of %s and %s: %w", from, to, err)
	}
	return nil
}

func (ch *Change) loadCommit(ctx context.Context, repo *git.Repo, commit string) error {
	var err error
	if ch.Head, err = repo.ResolveCommit(ctx, commit); err != nil {
		if commit == "HEAD" && errors.Is(err, git.ErrUnknownRef) {
			return fmt.Errorf("could not resolve --commit: %w; or drop --commit to review the work tree", err)
		}
		return fmt.Errorf("could not resolve --commit: %w", err)
	}
	notes, err := repo.EnsureParents(ctx, ch.Head)
	ch.Notes = append(ch.Notes, notes...)
	if err != nil {
		return err
	}
	if ch.Base, err = repo.FirstParent(ctx, ch.Head); err != nil {
		return fmt.Errorf("could not read the parent of %s: %w", commit, err)
	}
	if ch.Base == "" {
		ch.Base = git.EmptyTree
	}
	return ch.parseWithin(repo.DiffTextWithin(ctx, ch.Base, ch.Head, ch.budget))
}

func (ch *Change) loadWorkspace(ctx context.Context, repo *git.Repo) error {
	head, unborn, err := repo.Head(ctx)
	if err != nil {
		return err
	}
	ch.Base = head
	if unborn {
		ch.Base = git.EmptyTree
	}
	raw, err := repo.WorkspaceDiff(ctx)
	return ch.Parse(string(raw), err)
}

// Parse parses raw diff output (err is the error of computing it, returned
// wrapped) and indexes each file's own diff text by
// its new and old paths (for file_read_diff).
func (ch *Change) Parse(raw string, err error) error {
	if err != nil {
		return fmt.Errorf("could not compute the diff: %w", err)
	}
	if ch.Files, err = udiff.ParseString(raw); err != nil {
		return fmt.Errorf("could not parse the diff: %w", err)
	}
	ch.Diffs = make(map[string]string, len(ch.Files))
	for _, f := range ch.Files {
		for _, p := range []string{f.NewPath, f.OldPath} {
			if p != "" {
				ch.Diffs[p] = f.Raw
			}
		}
	}
	return nil
}

// Ref is the ref the tools read at: the head commit, or "" for the work tree.
func (ch *Change) Ref() string { return ch.Head }

// Parsed is the parsed diff, nil for no change (ocr merge has none).
func (ch *Change) Parsed() []udiff.File {
	if ch == nil {
		return nil
	}
	return ch.Files
}
