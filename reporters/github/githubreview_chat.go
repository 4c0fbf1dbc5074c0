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
func (run *ghRun) reportPaused(ctx context.Context, r, all *review.Review) error {
	in := posting.StickyInput{Review: all, Notes: posting.Notes(append(run.notes, run.g.Paused), r),
		State: posting.RecordedState(all, run.head, run.g.ConfigHash, run.ex.summary.GetBody())}
	return run.upsertSummary(ctx, posting.StickySummary(in))
}

// withoutIgnored is r without the findings of Review.Ignored and the
// suppressed ones, for this poster only, and forgets their earlier
// threads (posting.WithoutIgnored).
func (run *ghRun) withoutIgnored(r *review.Review) *review.Review {
	r, run.ex.order = posting.WithoutIgnored(r, run.g.Ignored, run.ex.order)
	return r
}
