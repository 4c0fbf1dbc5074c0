package runner

import (
	"cmp"
	"context"
	"fmt"

	"github.com/ocr-ci/ocr/anchor"
	"github.com/ocr-ci/ocr/anchor/udiff"
	"github.com/ocr-ci/ocr/internal/app/config"
	"github.com/ocr-ci/ocr/internal/app/plan"
	"github.com/ocr-ci/ocr/internal/app/preview"
	"github.com/ocr-ci/ocr/internal/domain/change"
	"github.com/ocr-ci/ocr/internal/domain/rules"
	"github.com/ocr-ci/ocr/internal/domain/selection"
	"github.com/ocr-ci/ocr/internal/infra/git"
	"github.com/ocr-ci/ocr/reporters/posting"
	"github.com/ocr-ci/ocr/review"
)

// stateReader is a poster that remembers the head it reviewed last.
type stateReader interface {
	LastState(ctx context.Context) (posting.State, bool, error)
}

// incremental returns the change since the last reviewed head of this pull
// request, or nil with the reason a full review is needed. It is used only
// when the last head is an ancestor of the new one and the configuration
// is unchanged; a re-run on the same head is a full review.
func (c *Command) incremental(ctx context.Context, j *job, repo *git.Repo, full *change.Change) (*change.Change, []review.Comment, string) {
	if j.cfg.Full || j.ci.PR == 0 || full.Mode != "range" {
		return nil, nil, ""
	}
	st, ok := c.lastState(ctx, j, full)
	switch {
	case !ok:
		return nil, nil, "no earlier complete review of this pull request was found"
	case st.Config != j.configHash():
		return nil, nil, "the configuration changed since the last review"
	case st.Head == full.Head:
		return nil, nil, "the head was reviewed before; reviewing it again in full"
	case st.Findings == nil:
		return nil, nil, "the last review's findings could not be read from its summary"
	}
	if _, err := repo.EnsureHistory(ctx, st.Head, full.Head); err != nil {
		return nil, nil, "the last reviewed head " + preview.Short(st.Head) + " is not available: " + err.Error()
	}
	if mb, err := repo.MergeBase(ctx, st.Head, full.Head); err != nil || mb != st.Head {
		return nil, nil, "the last reviewed head " + preview.Short(st.Head) + " is not an ancestor of the new head (force-push or rebase)"
	}
	inc := &change.Change{Mode: "range", Base: st.Head, Head: full.Head}
	if err := inc.Parse(repo.DiffText(ctx, st.Head, full.Head)); err != nil {
		return nil, nil, "could not compute the change since " + preview.Short(st.Head) + ": " + err.Error()
	}
	return inc, st.Findings, ""
}

// carryForward keeps the earlier findings that still apply to the pull
// request: unchanged in files the new commits did not touch; re-anchored
// against the whole pull request's diff in files they did touch, and
// dropped (resolved) when their quoted code left the diff.
func carryForward(ctx context.Context, earlier []review.Comment, inc *change.Change, full *anchor.ChangeSet) []review.Comment {
	touched := map[string]bool{}
	for _, f := range inc.Files {
		touched[f.NewPath], touched[f.OldPath] = true, true
	}
	var out []review.Comment
	for _, c := range earlier {
		if _, inPR := full.File(c.Path); !inPR {
			continue
		}
		if touched[c.Path] && !c.FileLevel() {
			loc := anchor.Resolve(ctx, anchor.Query{Path: c.Path, Code: c.ExistingCode, LineHint: c.StartLine}, full, anchor.Options{NoFuzzy: true})
			if loc.FileLevel() || !loc.InHunk {
				continue
			}
			c.Location = loc
		}
		out = append(out, c)
	}
	return out
}

// lastState asks the pull/merge request poster what it reviewed last.
func (c *Command) lastState(ctx context.Context, j *job, ch *change.Change) (posting.State, bool) {
	for _, s := range j.specs {
		if !s.Kind.API() {
			continue
		}
		sr, ok := c.apiReporter(j, ch, s.Kind).(stateReader)
		if !ok {
			continue
		}
		st, found, err := sr.LastState(ctx)
		if err != nil {
			c.logf("could not read the last review's state (%v): reviewing in full", err)
			return st, false
		}
		return st, found
	}
	return posting.State{}, false
}

// mergeCoverage reports, for an incremental review, every file of the pull
// request: files changed since the last review carry this run's outcome,
// the others were reviewed then.
func mergeCoverage(full, inc []review.FileCoverage, since string) []review.FileCoverage {
	now := map[string]review.FileCoverage{}
	for _, f := range inc {
		now[f.Path] = f
	}
	out := make([]review.FileCoverage, 0, len(full))
	for _, f := range full {
		if got, ok := now[f.Path]; ok {
			f.Reviewed, f.Reason, f.Detail = got.Reviewed, got.Reason, got.Detail
		} else if f.Reviewed {
			f.Detail = "unchanged since " + preview.Short(since) + ", reviewed then"
		}
		out = append(out, f)
	}
	return out
}

// narrow selects what an incremental review covers: the files the commits
// since the last reviewed head touched. Selection is decided on the whole
// pull request, not on the increment alone: a file excluded at the last
// reviewed head (a generated header, under vendor/) that a later commit
// makes reviewable (removing the header, renaming it out of vendor/)
// without touching the rest of its content was never reviewed, so it is
// reviewed now with its whole pull-request diff. Missing this would let
// code reach the head unreviewed while the review says complete.
func (c *Command) narrow(ctx context.Context, cfg *config.Config, repo *git.Repo, full *change.Change, fullP preview.Preview, inc *change.Change, set *rules.Set) (*narrowed, error) {
	files := set.ApplySelection(selection.Files(inc.Files, inc.Diffs, plan.Selection(ctx, cfg, repo, inc)))
	prev := &change.Change{Mode: "range", Base: full.Base, Head: inc.Base}
	if err := prev.Parse(repo.DiffText(ctx, full.Base, inc.Base)); err != nil {
		return nil, fmt.Errorf("could not compute the pull request as last reviewed (%s): %w", preview.Short(inc.Base), err)
	}
	before := coverageByPath(set.ApplySelection(selection.Files(prev.Files, prev.Diffs, plan.Selection(ctx, cfg, repo, prev))))
	now := coverageByPath(fullP.Files)
	fullFiles := map[string]udiff.File{}
	for _, f := range full.Files {
		fullFiles[f.Path()] = f
	}
	for i, f := range inc.Files {
		then, wasInPR := before[cmp.Or(f.OldPath, f.NewPath)]
		if f.Status == udiff.StatusAdded {
			then, wasInPR = before[f.Path()]
		}
		cur, ok := now[f.Path()]
		whole, inFull := fullFiles[f.Path()]
		if !wasInPR || then.Reviewed || !ok || !cur.Reviewed || !inFull {
			continue
		}
		inc.Files[i] = whole
		for _, p := range []string{whole.NewPath, whole.OldPath} {
			if p != "" {
				inc.Diffs[p] = whole.Raw
			}
		}
		cur.Detail = fmt.Sprintf("not reviewed at %s (%s as %s), reviewable now: its whole diff is reviewed",
			preview.Short(inc.Base), then.Reason, then.Path)
		files[i] = cur
		c.logf("%s was %s at %s and is reviewable now: reviewing its whole diff", f.Path(), then.Reason, preview.Short(inc.Base))
	}
	return &narrowed{Change: inc, Preview: preview.New(inc, files)}, nil
}

func coverageByPath(files []review.FileCoverage) map[string]review.FileCoverage {
	m := make(map[string]review.FileCoverage, len(files))
	for _, f := range files {
		m[f.Path] = f
	}
	return m
}
