// Package incremental decides what a pull-request review must cover, given
// the last complete review ocr recorded on the pull request (the state read
// back from its sticky summary, posting.State): everything, or only the
// commits since the last reviewed head when that head is an ancestor of
// the new one. After the review it merges the two: coverage of every file
// of the pull request, and the earlier findings that still apply carried
// forward, re-anchored in the new head.
package incremental

import (
	"context"

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
}

// Decide chooses the scope of a run. Anything that stops an incremental
// review (no earlier review, another configuration, a missing commit)
// gives Full, with the reason in Why.
func Decide(ctx context.Context, in Input) Scope {
	full := Scope{Kind: Full, Change: in.Change, Preview: in.Preview}
	if in.Change.Mode != "range" {
		return full
	}
	inc, why := since(ctx, in)
	if inc == nil {
		full.Why = "full review: " + why
		return full
	}
	n, err := narrow(ctx, in, inc)
	if err != nil {
		full.Why = "full review: " + err.Error()
		return full
	}
	return Scope{Kind: Since, Since: inc.Base, Change: n.Change, Preview: n.Preview, Earlier: in.State.Findings,
		Why: "incremental review: only what changed since " + preview.Short(inc.Base) + " (--full reviews everything)"}
}

// Merge completes rv, the review of s.Change, into the review of the
// whole pull request full (whose selection is p): coverage of every file,
// and the base of the pull request. It returns the earlier findings that
// still apply, re-anchored in the new head, for the caller to add to rv's
// before deduplication and caps.
func (s Scope) Merge(ctx context.Context, full *change.Change, p preview.Preview, rv *review.Review) []review.Comment {
	if s.Kind == Full {
		return nil
	}
	rv.Files, rv.Base = mergeCoverage(p.Files, rv.Files, s.Since), full.Base
	return carryForward(ctx, s.Earlier, s.Change, full)
}

func (in Input) logf(format string, args ...any) {
	if in.Logf != nil {
		in.Logf(format, args...)
	}
}
