package agent

import (
	"context"
	"fmt"

	"github.com/ocr-ci/ocr/agent/grouping"
	"github.com/ocr-ci/ocr/internal/domain/vote"
	"github.com/ocr-ci/ocr/review"
	"github.com/ocr-ci/ocr/tools"
)

// task builds the review of group g's pass, its files in the pass's order.
func (r *run) task(g grouping.Group, pass int) *task {
	files := make([]File, len(g))
	for k, idx := range g.ForPass(pass) {
		files[k] = r.in.Files[idx]
	}
	return &task{a: r.a, run: r, files: files, pass: pass, voting: r.a.cfg.Passes > 1,
		sess: &tools.Session{Source: r.in.Source, Diffs: r.diffs, File: files[0].Path}}
}

// vote keeps the findings of a group's passes that enough of them found
// (internal/domain/vote) and runs the filter once on those. The passes
// that ended early do not vote: the majority is of those that finished,
// and a group none finished is not reviewed, for the first pass's reason.
func (r *run) vote(ctx context.Context, g grouping.Group, passes []groupResult) groupResult {
	var out groupResult
	var found [][]review.Comment
	for _, res := range passes {
		out.usage, out.planned = out.usage.Add(res.usage), out.planned || res.planned
		if res.reason != "" {
			if len(found) == 0 && out.reason == "" {
				out.reason, out.detail = res.reason, res.detail
			}
			continue
		}
		found, out.rounds = append(found, res.comments), max(out.rounds, res.rounds)
	}
	if len(found) == 0 {
		return out
	}
	t := r.task(g, 0)
	out.reason, out.detail = "", ""
	if len(found) < len(passes) {
		r.progress("group %s: %d of %d passes finished; the vote is among those", t.label(), len(found), len(passes))
	}
	kept, outvoted := vote.Passes(found, min(r.a.cfg.MinVotes, len(found)))
	t.voting = false
	out.comments, out.dropped = t.filtered(ctx, kept)
	out.outvoted, out.usage = outvoted, out.usage.Add(t.usage)
	return out
}

// passUsage is what each pass cost over every group (nil for one pass);
// the filter run after the vote is in no pass.
func passUsage(units []groupResult, passes int) []review.Usage {
	if passes < 2 {
		return nil
	}
	out := make([]review.Usage, passes)
	for u, res := range units {
		out[u%passes] = out[u%passes].Add(res.usage)
	}
	return out
}

// passTag is " pass 2/3" in a group's progress lines, ", 3 passes each"
// in the run's first line (pass -1), "" for one pass.
func (r *run) passTag(pass int) string {
	switch {
	case r.a.cfg.Passes < 2:
		return ""
	case pass < 0:
		return fmt.Sprintf(", %d passes each", r.a.cfg.Passes)
	}
	return fmt.Sprintf(" pass %d/%d", pass+1, r.a.cfg.Passes)
}
