package agent

import (
	"cmp"
	"context"
	"fmt"
	"strings"

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

// vote keeps the findings enough passes of a group found (internal/domain/vote),
// then runs the filter once. Passes that ended early do not vote; a group
// fewer than MinVotes finished is not reviewed, for the first failure's reason.
func (r *run) vote(ctx context.Context, g grouping.Group, passes []groupResult) groupResult {
	out, found := groupResult{}, [][]review.Comment(nil)
	for _, res := range passes {
		out.usage, out.planned = out.usage.Add(res.usage), out.planned || res.planned
		if res.reason != "" {
			out.reason, out.detail = cmp.Or(out.reason, res.reason), cmp.Or(out.detail, res.detail)
			continue
		}
		found, out.rounds = append(found, res.comments), max(out.rounds, res.rounds)
	}
	if len(found) == 0 {
		return out
	}
	t := r.task(g, 0)
	r.shortVote(t.label(), &out, len(found), len(passes))
	kept, outvoted := vote.Passes(found, min(r.a.cfg.MinVotes, len(found)))
	t.voting = false
	out.comments, out.dropped = t.filtered(ctx, kept)
	out.outvoted, out.usage = outvoted, out.usage.Add(t.usage)
	return out
}

// shortVote: a group fewer than MinVotes passes finished stays not reviewed.
func (r *run) shortVote(label string, out *groupResult, finished, passes int) {
	if finished < passes {
		r.progress("group %s: %d of %d passes finished (min-votes %d)", label, finished, passes, r.a.cfg.MinVotes)
	}
	if finished >= r.a.cfg.MinVotes {
		out.reason, out.detail = "", ""
		return
	}
	out.detail = strings.TrimSuffix(fmt.Sprintf("%d of %d passes finished (min-votes %d); %s", finished, passes, r.a.cfg.MinVotes, out.detail), "; ")
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
