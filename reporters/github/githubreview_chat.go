package github

import (
	"context"

	"github.com/ocr-ci/ocr/reporters/posting"
	"github.com/ocr-ci/ocr/review"
)

// What the conversation (package conversation) asks of the poster: while
// paused, no inline or file comment and no thread resolved, only the
// sticky summary with Review.Paused as its note; an ignored finding is
// never posted, and its thread is not listed as resolved by this run.

// reportPaused writes only the sticky summary, with the pause note. The
// state is recorded as usual, so after a resume an incremental review
// carries the findings found while paused forward and posts them.
func (run *ghRun) reportPaused(ctx context.Context, r *review.Review) error {
	in := posting.StickyInput{Review: r, Notes: posting.Notes(append(run.notes, run.g.Paused), r),
		State: posting.RecordedState(r, run.head, run.g.ConfigHash, run.ex.summary.GetBody())}
	return run.upsertSummary(ctx, posting.StickySummary(in))
}

// withoutIgnored is r with the findings of Review.Ignored left out, for
// this poster only (the file reports keep them), and forgets their earlier
// threads, so they are neither posted again nor listed as resolved.
func (run *ghRun) withoutIgnored(r *review.Review) *review.Review {
	if len(run.g.Ignored) == 0 {
		return r
	}
	out := *r
	out.Comments = nil
	for _, c := range r.Comments {
		fp := c.Fingerprint
		if fp == "" {
			fp = review.Fingerprint(c.Path, c.Category, c.ExistingCode)
		}
		if !run.g.Ignored[fp] {
			out.Comments = append(out.Comments, c)
		}
	}
	order := run.ex.order[:0:0]
	for _, fp := range run.ex.order {
		if !run.g.Ignored[fp] {
			order = append(order, fp)
		}
	}
	run.ex.order = order
	return &out
}
