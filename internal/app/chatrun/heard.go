package chatrun

import (
	"context"

	"github.com/ocr-ci/ocr/conversation"
	"github.com/ocr-ci/ocr/conversation/githubchat"
	"github.com/ocr-ci/ocr/internal/app/ci"
	"github.com/ocr-ci/ocr/internal/domain/rules"
	"github.com/ocr-ci/ocr/reporters/posting"
	"github.com/ocr-ci/ocr/review"
)

// Heard is what people said on the pull or merge request that the run's
// poster honours: the fingerprints they ignored and, while ocr is paused,
// the pause note. Hear reads it and the runner's publish takes it, so
// nothing is posted before it was read.
type Heard struct {
	Ignored map[string]bool
	Paused  string
}

// Hear applies what people said before the review is reported: the
// findings of the rule files' ignore lists and those ignored on the pull
// or merge request (read from the forge f returns, after the rule files'
// ignore lists are applied; nil when the run posts nothing) are marked
// suppressed (review.Review.Suppress: kept and marked in SARIF and JSON,
// not posted, not gated); while ocr is paused nothing is posted inline
// (conversation.ReadState). A run started by "/ocr review" (a comment
// event, a GitLab note trigger) posts even while paused: someone asked.
func Hear(ctx context.Context, forge func() conversation.Forge, chat conversation.Settings, env *ci.Env, cx *ci.Context, rv *review.Review, set *rules.Set, logf func(string, ...any)) Heard {
	if n := rv.Suppress(set.Suppression); n > 0 {
		logf("%d finding(s) ignored by the rule file's ignore list: marked in the file reports, not posted, not counted by --fail-on", n)
	}
	f := forge()
	if f == nil {
		return Heard{}
	}
	s, err := conversation.ReadState(ctx, f)
	if err != nil {
		logf("could not read the pause and ignore commands (%v): reporting as if there were none", err)
		return Heard{}
	}
	if n := rv.Suppress(s.Suppression); n > 0 {
		logf("%d finding(s) ignored on this pull request: marked in the file reports, not posted, not counted by --fail-on", n)
	}
	learn(ctx, logf, f, chat.Trust, rv, s.Ignored)
	h := Heard{Ignored: s.Ignored}
	if s.Paused && !githubchat.IsCommentEvent(cx.Event) && !ci.IsGitLabNoteTrigger(env.GitLab) {
		h.Paused = s.PausedNote(chat.Handle)
		logf("paused by %s on this pull request: nothing is posted inline; the summary says so", s.By)
	}
	return h
}

// learn applies the 👎 that trusted people gave ocr's findings on the pull
// or merge request (conversation.ReadDismissed): each dismissed finding
// counts as "/ocr ignore" without a reason (its fingerprint joins ignored,
// which the poster never posts again), and a finding of this review like
// one of them (review.Dismissal.Like) is suppressed "like one dismissed by
// @x". A failure to read the reactions is logged; the review goes on.
func learn(ctx context.Context, logf func(string, ...any), f conversation.Forge, trust []string, rv *review.Review, ignored map[string]bool) {
	ds, err := conversation.ReadDismissed(ctx, f, trust)
	if err != nil {
		logf("could not read the 👎 reactions to ocr's comments (%v): findings like the dismissed ones are posted as usual", err)
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
	logf("%d finding(s) dismissed with 👎 on this pull request; %d finding(s) of this review suppressed as dismissed or like one: "+
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
