package runner

import (
	"context"
	"time"

	"github.com/ocr-ci/ocr/internal/app/incremental"
	"github.com/ocr-ci/ocr/internal/app/plan"
	"github.com/ocr-ci/ocr/internal/domain/change"
	"github.com/ocr-ci/ocr/internal/domain/selection"
	"github.com/ocr-ci/ocr/reporters/posting"
	"github.com/ocr-ci/ocr/review"
)

// stateReader is a poster that remembers the head it reviewed last.
type stateReader interface {
	LastState(ctx context.Context) (posting.State, bool, error)
}

// scope decides between a full and an incremental review
// (internal/app/incremental) and says why.
func (c *Command) scope(ctx context.Context, j *job, pr *plan.Review) incremental.Scope {
	repo, ch, p, set := pr.Repo, pr.Change, pr.Preview, pr.Rules
	if j.cfg.Full || j.ci.PR == 0 || ch.Mode != "range" {
		return incremental.Scope{Kind: incremental.Full, Change: ch, Preview: p}
	}
	in := incremental.Input{Repo: repo, Change: ch, Preview: p, Config: j.configHash(), Logf: c.logf,
		Select: func(ctx context.Context, ch *change.Change) []review.FileCoverage {
			return set.ApplySelection(selection.Files(ch.Files, ch.Diffs, plan.Selection(ctx, j.cfg, repo, ch)))
		}}
	in.State, in.Found, in.Unread = c.lastState(ctx, j, ch)
	sc := incremental.Decide(ctx, in)
	if sc.Why != "" {
		c.logf("%s", sc.Why)
	}
	return sc
}

// reviewScope reviews what sc covers; a re-run of a reviewed head asks
// nothing of the model (its findings come back in sc.Merge).
func (c *Command) reviewScope(ctx context.Context, j *job, pr *plan.Review, sc incremental.Scope) (*review.Review, error) {
	if sc.Kind != incremental.Rerun {
		return c.runAgent(ctx, j, &plan.Review{Repo: pr.Repo, Change: sc.Change, Rules: pr.Rules, Preview: sc.Preview})
	}
	ch := sc.Change
	return &review.Review{Tool: "ocr", Version: Version, Mode: ch.Mode, Base: ch.Base, Head: ch.Head, Started: j.started,
		Status: review.StatusComplete, Finished: time.Now(), Comments: []review.Comment{}}, nil
}

// lastState asks the pull/merge request what ocr reviewed last, or why it
// could not, through a reader of the poster's kind (it posts nothing: the
// posters are built after the pause and ignores are read, by buildReporters).
func (c *Command) lastState(ctx context.Context, j *job, ch *change.Change) (posting.State, bool, error) {
	for _, s := range j.specs {
		if !s.Kind.API() {
			continue
		}
		sr, ok := c.newPoster(j, ch, s.Kind, heard{}).(stateReader)
		if !ok {
			continue
		}
		return sr.LastState(ctx)
	}
	return posting.State{}, false, nil
}
