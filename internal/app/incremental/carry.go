package incremental

import (
	"context"

	"github.com/ocr-ci/ocr/anchor"
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
// the others were reviewed then, which their Detail says (then).
func mergeCoverage(full, inc []review.FileCoverage, then string) []review.FileCoverage {
	now := map[string]review.FileCoverage{}
	for _, f := range inc {
		now[f.Path] = f
	}
	out := make([]review.FileCoverage, 0, len(full))
	for _, f := range full {
		if got, ok := now[f.Path]; ok {
			f.Reviewed, f.Reason, f.Detail = got.Reviewed, got.Reason, got.Detail
		} else if f.Reviewed {
			f.Detail = then
		}
		out = append(out, f)
	}
	return out
}

// reanchor keeps the earlier findings in the files keep accepts, each
// anchored again by its quote in the pull request full (a rebase moves
// lines). A finding whose code is gone from the diff is dropped (its
// thread is resolved), unless same: the head is the one reviewed, so the
// finding stays where it was recorded. A file-level finding stays while
// its file is in the pull request.
func reanchor(ctx context.Context, earlier []review.Comment, full *change.Change, keep func(path string) bool, same bool) []review.Comment {
	set := anchor.NewChangeSet(full.Files)
	var out []review.Comment
	for _, c := range earlier {
		if _, inPR := set.File(c.Path); !inPR || !keep(c.Path) {
			continue
		}
		if !c.FileLevel() {
			loc := anchor.Resolve(ctx, anchor.Query{Path: c.Path, Code: c.ExistingCode, LineHint: c.StartLine}, set, anchor.Options{NoFuzzy: true})
			switch {
			case !loc.FileLevel() && loc.InHunk:
				c.Location = loc
			case !same:
				continue
			}
		}
		out = append(out, c)
	}
	return out
}

// Combine is the findings of a run: the carried ones and this run's,
// deduplicated (review.Dedupe). A finding the last review made too (the
// same fingerprint), carried or found again in a file reviewed again, is
// Carried: it has its thread.
func (s Scope) Combine(carried, fresh []review.Comment) []review.Comment {
	was := map[string]bool{}
	for _, c := range s.Earlier {
		was[fingerprintOf(c)] = true
	}
	out := review.Dedupe(append(carried, fresh...))
	for i := range out {
		if was[fingerprintOf(out[i])] {
			out[i].Carried = true
		}
	}
	return out
}

// fingerprintOf is a finding's fingerprint, computed when it is empty.
func fingerprintOf(c review.Comment) string {
	if c.Fingerprint != "" {
		return c.Fingerprint
	}
	return review.Fingerprint(c.Path, c.Category, c.ExistingCode)
}
