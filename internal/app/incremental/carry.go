package incremental

import (
	"context"

	"github.com/ocr-ci/ocr/anchor"
	"github.com/ocr-ci/ocr/internal/app/preview"
	"github.com/ocr-ci/ocr/internal/domain/change"
	"github.com/ocr-ci/ocr/review"
)

// carryForward keeps the earlier findings that still apply to the pull
// request: unchanged in files the new commits did not touch; re-anchored
// against the whole pull request's diff in files they did touch, and
// dropped (resolved) when their quoted code left the diff.
func carryForward(ctx context.Context, earlier []review.Comment, inc, pr *change.Change) []review.Comment {
	full := anchor.NewChangeSet(pr.Files)
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
