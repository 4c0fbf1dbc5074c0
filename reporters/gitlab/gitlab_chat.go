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
// suppressed ones, for this poster only (the file reports keep them), and
// forgets their earlier discussions, so they are neither posted again nor
// resolved as gone.
func (run *glRun) withoutIgnored(r *review.Review) *review.Review {
	ignored := map[string]bool{}
	for fp := range run.g.Ignored {
		ignored[fp] = true
	}
	for _, c := range review.Suppressed(r.Comments) {
		ignored[review.FingerprintOf(c)] = true
	}
	if len(ignored) == 0 {
		return r
	}
	out := *r
	out.Comments = nil
	for _, c := range r.Comments {
		if !ignored[review.FingerprintOf(c)] {
			out.Comments = append(out.Comments, c)
		}
	}
	order := run.ex.order[:0:0]
	for _, fp := range run.ex.order {
		if !ignored[fp] {
			order = append(order, fp)
		}
	}
	run.ex.order = order
	return &out
}
