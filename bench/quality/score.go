package main

import (
	"context"

	"github.com/ocr-ci/ocr/review"
)

// sameMeaning says whether a generated comment says what an annotated one
// says (the judge); nil takes every location match as a match.
type sameMeaning func(ctx context.Context, expected comment, got review.Comment) bool

// tally is the counts of one setting over the dataset.
type tally struct {
	Changes, Clean, Failed         int
	Posted, PostedOnClean          int
	Matched, LineMatched, Rejected int
	Expected                       int
	Usage                          review.Usage
}

// score adds one change's outcome to t: comments matched one to one with
// the expected ones (same path and side, lines overlapping within tol,
// and, with a judge, the same meaning), comments on an expected comment's
// lines exactly (line precision), comments like a rejected one.
func (t *tally) score(ctx context.Context, ch change, o outcome, tol int, judge sameMeaning) {
	t.Changes++
	t.Usage = t.Usage.Add(o.Usage)
	if o.Failed != "" {
		t.Failed++
	}
	t.Posted += len(o.Posted)
	t.Expected += len(ch.Expected)
	if ch.Clean() {
		t.Clean++
		t.PostedOnClean += len(o.Posted)
	}
	pairs := candidates(ctx, ch.Expected, o.Posted, tol, judge)
	t.Matched += maxMatching(pairs, len(o.Posted), len(ch.Expected))
	for _, g := range o.Posted {
		if onLines(ch.Expected, g, 0) {
			t.LineMatched++
		}
	}
	for i, g := range o.Posted {
		if len(pairs[i]) == 0 && len(candidates(ctx, ch.Rejected, []review.Comment{g}, tol, judge)[0]) > 0 {
			t.Rejected++
		}
	}
}

// candidates lists, for each generated comment, the expected comments it
// may be matched with.
func candidates(ctx context.Context, expected []comment, got []review.Comment, tol int, judge sameMeaning) [][]int {
	out := make([][]int, len(got))
	for i, g := range got {
		for j, e := range expected {
			if near(e, g, tol) && (judge == nil || judge(ctx, e, g)) {
				out[i] = append(out[i], j)
			}
		}
	}
	return out
}

// near: same path and side, line ranges overlapping once widened by tol.
func near(e comment, g review.Comment, tol int) bool {
	side, from, to := e.span()
	if e.Path != g.Path || side != g.Side {
		return false
	}
	return g.StartLine <= to+tol && from <= max(g.EndLine, g.StartLine)+tol
}

// onLines reports whether g is near any of es within tol.
func onLines(es []comment, g review.Comment, tol int) bool {
	for _, e := range es {
		if near(e, g, tol) {
			return true
		}
	}
	return false
}

// maxMatching is the size of a maximum one-to-one matching of generated
// comments to expected ones (Kuhn's augmenting paths): two comments on
// one issue count once, and one comment cannot find two issues.
func maxMatching(pairs [][]int, nGot, nExpected int) int {
	owner := make([]int, nExpected)
	for j := range owner {
		owner[j] = -1
	}
	var try func(i int, seen []bool) bool
	try = func(i int, seen []bool) bool {
		for _, j := range pairs[i] {
			if seen[j] {
				continue
			}
			seen[j] = true
			if owner[j] < 0 || try(owner[j], seen) {
				owner[j] = i
				return true
			}
		}
		return false
	}
	n := 0
	for i := range nGot {
		if try(i, make([]bool, nExpected)) {
			n++
		}
	}
	return n
}

// ratio is a/b, 0 when b is 0.
func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}
