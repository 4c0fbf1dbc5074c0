// Package incremental decides what a pull-request review must cover, given
// the last complete review ocr recorded on the pull request (the state read
// back from its sticky summary, posting.State): everything; nothing when
// the head was reviewed already (a re-run); only the commits since the
// last reviewed head when that head is an ancestor of the new one; only
// the files whose own change differs when it is not (a rebase or a
// force-push) or when the base branch was merged in (files matched by git
// patch-id). After the review it merges
// the two: coverage of every file of the pull request, and the earlier
// findings that still apply carried forward, re-anchored in the new head.
package incremental

import (
	"context"
	"errors"
	"fmt"

	"github.com/ocr-ci/ocr/internal/app/preview"
	"github.com/ocr-ci/ocr/internal/domain/change"
	"github.com/ocr-ci/ocr/internal/infra/git"
	"github.com/ocr-ci/ocr/reporters/posting"
	"github.com/ocr-ci/ocr/review"
)

// Kind is how much of the pull request a run reviews.
type Kind int

const (
	// Full reviews the whole pull request.
	Full Kind = iota
	// Since reviews the commits since the last reviewed head, an ancestor
	// of the new head.
	Since
	// Rerun reviews nothing: the head was reviewed, its findings are
	// reused.
	Rerun
	// Rebase reviews the files whose own change differs from the last
	// reviewed version of the pull request: that version is not an
	// ancestor of the new head (a rebase, a force-push), or the base
	// branch was merged in since.
	Rebase
)

// Input is what Decide needs to know about the run.
type Input struct {
	Repo *git.Repo
	// Change is the whole pull request and Preview its selection.
	Change  *change.Change
	Preview preview.Preview
	// State is the last complete review recorded on the pull request;
	// Found is false when there is none.
	State posting.State
	Found bool
	// Unread says why the state could not be looked up (no token, an API
	// error); nil when it was.
	Unread error
	// Config fingerprints this run's configuration (posting.State.Config).
	Config string
	// Select is the selection of a change with the review rules applied,
	// as the run decides it for the whole pull request.
	Select func(ctx context.Context, ch *change.Change) []review.FileCoverage
	// Logf receives what is worth saying; nil discards it.
	Logf func(format string, args ...any)
}

// Scope is what a run reviews.
type Scope struct {
	Kind Kind
	// Since is the last reviewed head (not Full).
	Since string
	// Change and Preview are what the agent reviews: the whole pull
	// request (Full) or the part that changed.
	Change  *change.Change
	Preview preview.Preview
	// Earlier are the last review's findings, lines as at Since.
	Earlier []review.Comment
	// Why says why the scope was chosen, for the log ("" when nothing is
	// worth saying).
	Why string
	// unchanged are the paths whose change is the same as at Since
	// (Rebase): their earlier findings are carried.
	unchanged map[string]bool
}

// Decide chooses the scope of a run. Anything that stops reusing the
// last review (no earlier review, another configuration, a missing
// commit) gives Full, with the reason in Why.
func Decide(ctx context.Context, in Input) Scope {
	full := Scope{Kind: Full, Change: in.Change, Preview: in.Preview}
	if in.Change.Mode != "range" {
		return full
	}
	sc, err := decide(ctx, in)
	if err != nil {
		full.Why = "full review: " + err.Error()
		return full
	}
	return sc
}

// decide is Decide's choice, or the reason for a full review.
func decide(ctx context.Context, in Input) (Scope, error) {
	if err := usable(in); err != nil {
		return Scope{}, err
	}
	if in.State.Head == in.Change.Head {
		return rerun(in)
	}
	return moved(ctx, in)
}

// moved scopes a review of a new head: since the last reviewed head when
// it descends from it on the same base, else file by file (rebase).
func moved(ctx context.Context, in Input) (Scope, error) {
	st, head, base, repo := in.State, in.Change.Head, in.Change.Base, in.Repo
	if _, err := repo.EnsureHistory(ctx, st.Head, head); err != nil {
		return Scope{}, fmt.Errorf("the last reviewed head %s is not in this clone and could not be fetched "+
			"(a force-push may have left it on no branch): %w", preview.Short(st.Head), err)
	}
	oldBase, err := repo.MergeBase(ctx, base, st.Head)
	if err != nil {
		return Scope{}, fmt.Errorf("could not find where the last reviewed head %s forked: %w", preview.Short(st.Head), err)
	}
	mb, err := repo.MergeBase(ctx, st.Head, head)
	switch descends := err == nil && mb == st.Head; {
	case descends && oldBase == base:
		return since(ctx, in)
	case descends:
		// The base branch was merged in ("Update branch"): the commits
		// since bring its changes, which are not the pull request's.
		return rebase(ctx, in, oldBase, "the base branch merged in ("+preview.Short(base)+")")
	case oldBase == base:
		return rebase(ctx, in, oldBase, "force-pushed onto the same base "+preview.Short(base))
	}
	return rebase(ctx, in, oldBase, "rebased onto "+preview.Short(base))
}

// usable says why the recorded state cannot be reused, or nil.
func usable(in Input) error {
	switch st := in.State; {
	case in.Unread != nil:
		return fmt.Errorf("could not look up the last review: %w", in.Unread)
	case !in.Found:
		return errors.New("no earlier complete review of this pull request was found")
	case st.Config != in.Config:
		return errors.New("the configuration changed since the last review")
	case st.Findings == nil:
		return errors.New("the last review's findings could not be read from its summary")
	}
	return nil
}

// rerun reuses the review of the head: nothing is asked of the model;
// unless the summary could not record every finding.
func rerun(in Input) (Scope, error) {
	if in.State.Cut {
		return Scope{}, errors.New("the head was reviewed before, but its summary could not record every finding: reviewing it again")
	}
	return Scope{Kind: Rerun, Since: in.State.Head, Change: in.Change, Preview: in.Preview, Earlier: in.State.Findings,
		Why: fmt.Sprintf("re-run of %s, reviewed before: its review is reused (%d finding(s)), no model request "+
			"(--full reviews it again)", preview.Short(in.State.Head), len(in.State.Findings))}, nil
}

// Merge completes rv, the review of s.Change, into the review of the
// whole pull request full (whose selection is p): coverage of every file,
// and the base of the pull request. It returns the earlier findings that
// still apply, re-anchored in the new head and marked Carried, for the
// caller to add to rv's before deduplication and caps.
func (s Scope) Merge(ctx context.Context, full *change.Change, p preview.Preview, rv *review.Review) []review.Comment {
	var carried []review.Comment
	switch s.Kind {
	case Full:
		return nil
	case Rerun:
		rv.Files = p.Files
		carried = reanchor(ctx, s.Earlier, full, func(string) bool { return true }, true)
	case Since:
		rv.Files = mergeCoverage(p.Files, rv.Files, "unchanged since "+preview.Short(s.Since)+", reviewed then")
		carried = carryForward(ctx, s.Earlier, s.Change, full)
	case Rebase:
		rv.Files = mergeCoverage(p.Files, rv.Files, "the same change as at "+preview.Short(s.Since)+" (git patch-id), reviewed then")
		carried = reanchor(ctx, s.Earlier, full, func(path string) bool { return s.unchanged[path] }, false)
	}
	rv.Base = full.Base
	for i := range carried {
		carried[i].Carried = true
	}
	return carried
}

func (in Input) logf(format string, args ...any) {
	if in.Logf != nil {
		in.Logf(format, args...)
	}
}
