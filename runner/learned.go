package runner

import (
	"context"

	"github.com/ocr-ci/ocr/conversation"
	"github.com/ocr-ci/ocr/reporters/posting"
	"github.com/ocr-ci/ocr/review"
)

// learn applies the 👎 that trusted people gave ocr's findings on the pull
// or merge request (conversation.ReadDismissed): each dismissed finding
// counts as "/ocr ignore" without a reason (its fingerprint joins ignored,
// which the poster never posts again), and a finding of this review like
// one of them (review.Dismissal.Like) is suppressed "like one dismissed by
// @x". A failure to read the reactions is logged; the review goes on.
func (c *Command) learn(ctx context.Context, f conversation.Forge, trust []string, rv *review.Review, ignored map[string]bool) {
	ds, err := conversation.ReadDismissed(ctx, f, trust)
	if err != nil {
		c.logf("could not read the 👎 reactions to ocr's comments (%v): findings like the dismissed ones are posted as usual", err)
	}
	if len(ds) == 0 {
		return
	}
	dismissals := make([]review.Dismissal, 0, len(ds))
	by := map[string]string{}
	for _, d := range ds {
		ignored[d.FP], by[d.FP] = true, d.By
		if f, ok := dismissedFinding(d, rv.Comments); ok {
			dismissals = append(dismissals, review.Dismissal{Finding: f, By: d.By})
		}
	}
	n := rv.Suppress(func(cm review.Comment) (review.Suppression, bool) {
		if who, ok := by[review.FingerprintOf(cm)]; ok {
			return review.Suppression{By: who}, true
		}
		for _, d := range dismissals {
			if d.Like(cm) {
				return d.Suppression(), true
			}
		}
		return review.Suppression{}, false
	})
	c.logf("%d finding(s) dismissed with 👎 on this pull request; %d finding(s) of this review suppressed as dismissed or like one: "+
		"marked in the file reports, not posted, not counted by --fail-on", len(ds), n)
}

// dismissedFinding is the finding d dismissed: this review's own finding
// with its fingerprint when there is one (its quote known), else what
// ocr's comment says of it.
func dismissedFinding(d conversation.Dismissed, cs []review.Comment) (review.Comment, bool) {
	for _, cm := range cs {
		if review.FingerprintOf(cm) == d.FP {
			return cm, true
		}
	}
	return posting.FindingOf(d.Root.Body, d.Root.Path, d.Root.StartLine, d.Root.Line)
}
