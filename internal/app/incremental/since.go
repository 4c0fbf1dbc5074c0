package incremental

import (
	"cmp"
	"context"
	"fmt"

	"github.com/ocr-ci/ocr/anchor/udiff"
	"github.com/ocr-ci/ocr/internal/app/preview"
	"github.com/ocr-ci/ocr/internal/domain/change"
	"github.com/ocr-ci/ocr/review"
)

// since scopes a review to the commits since the last reviewed head, an
// ancestor of the new head.
func since(ctx context.Context, in Input) (Scope, error) {
	st, full, repo := in.State, in.Change, in.Repo
	inc := &change.Change{Mode: "range", Base: st.Head, Head: full.Head}
	if err := inc.Parse(repo.DiffText(ctx, st.Head, full.Head)); err != nil {
		return Scope{}, fmt.Errorf("could not compute the change since %s: %w", preview.Short(st.Head), err)
	}
	n, err := narrow(ctx, in, inc)
	if err != nil {
		return Scope{}, err
	}
	return Scope{Kind: Since, Since: inc.Base, Change: n.Change, Preview: n.Preview, Earlier: st.Findings,
		Why: "incremental review: only what changed since " + preview.Short(inc.Base) + " (--full reviews everything)"}, nil
}

// narrowed is the part of a pull request an incremental review covers.
type narrowed struct {
	*change.Change
	Preview preview.Preview
}

// narrow selects what an incremental review covers: the files the commits
// since the last reviewed head touched. Selection is decided on the whole
// pull request, not on the increment alone: a file excluded at the last
// reviewed head (a generated header, under vendor/) that a later commit
// makes reviewable (removing the header, renaming it out of vendor/)
// without touching the rest of its content was never reviewed, so it is
// reviewed now with its whole pull-request diff. Missing this would let
// code reach the head unreviewed while the review says complete.
func narrow(ctx context.Context, in Input, inc *change.Change) (*narrowed, error) {
	full, repo := in.Change, in.Repo
	files := in.Select(ctx, inc)
	prev := &change.Change{Mode: "range", Base: full.Base, Head: inc.Base}
	if err := prev.Parse(repo.DiffText(ctx, full.Base, inc.Base)); err != nil {
		return nil, fmt.Errorf("could not compute the pull request as last reviewed (%s): %w", preview.Short(inc.Base), err)
	}
	before := coverageByPath(in.Select(ctx, prev))
	now := coverageByPath(in.Preview.Files)
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
		in.logf("%s was %s at %s and is reviewable now: reviewing its whole diff", f.Path(), then.Reason, preview.Short(inc.Base))
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
