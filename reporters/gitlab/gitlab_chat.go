package gitlab

import (
	"context"

	"github.com/ocr-ci/ocr/reporters/posting"
	"github.com/ocr-ci/ocr/review"
)

// What the conversation (package conversation) asks of the poster, as of
// reporters/github.Review: while paused (Discussion.Paused), no diff
// discussion or general note and no discussion resolved, only the sticky
// summary with the pause note; an ignored or suppressed finding is never
// posted, and its discussion is not listed as resolved by this run.

// reportPaused writes only the sticky summary, with the pause note. The
// state is recorded as usual, so after a resume an incremental review
// carries the findings found while paused forward and posts them.
func (run *glRun) reportPaused(ctx context.Context, r, all *review.Review) error {
	var old string
	if run.ex.summary != nil {
		old = run.ex.summary.Body
	}
	in := posting.StickyInput{Review: all, Notes: posting.Notes(append(run.notes, run.g.Paused), r),
		State: posting.RecordedState(all, run.head, run.g.ConfigHash, old)}
	return run.upsertSummary(ctx, posting.StickySummary(in))
}

// withoutIgnored is r without the findings of Discussion.Ignored and the
// suppressed ones, for this poster only, and forgets their earlier
// discussions (posting.WithoutIgnored).
func (run *glRun) withoutIgnored(r *review.Review) *review.Review {
	r, run.ex.order = posting.WithoutIgnored(r, run.g.Ignored, run.ex.order)
	return r
}
