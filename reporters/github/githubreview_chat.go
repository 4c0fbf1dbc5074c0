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

// withoutIgnored is r with the findings of Review.Ignored and the
// suppressed ones (review.Comment.Suppressed) left out, for this poster
// only (the file reports keep them), and forgets their earlier threads,
// so they are neither posted again nor listed as resolved.
func (run *ghRun) withoutIgnored(r *review.Review) *review.Review {
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
