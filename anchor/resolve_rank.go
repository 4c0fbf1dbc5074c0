package anchor

import (
	"cmp"
	"sort"

	"github.com/ocr-ci/ocr/anchor/udiff"
	"github.com/ocr-ci/ocr/review"
)

// location turns the best of ms (numbered on side slot of f, or of path
// when f is nil) into a Location; the other equally good matches become
// Candidates.
func (r *resolver) location(f *udiff.File, path string, slot int, ms []match, method review.Method) review.Location {
	best, cands := r.rank(ms)
	r.places = r.places[:0]
	for _, m := range ms {
		if m.end-m.start == best.end-best.start {
			r.places = append(r.places, m.start)
		}
	}
	loc := review.Location{
		Path:       path,
		Side:       review.SideNew,
		StartLine:  best.start,
		EndLine:    best.end,
		InHunk:     best.hunk >= 0,
		Method:     method,
		Candidates: cands,
	}
	if slot == 1 {
		loc.Side = review.SideOld
	}
	if f != nil {
		r.setPaths(&loc, f)
	}
	return loc
}

// rank orders ms best first and returns the best with the start lines of
// the matches that are just as good. Preference: inside a hunk, then
// nearest the line hint (holding it, then starting nearest to it), then
// the tightest range (an ellipsis skips as little as it can), then more
// added/deleted lines, then the earliest.
// The hint comes before added-over-context because it is evidence about
// this very comment, while the other is only a prior.
func (r *resolver) rank(ms []match) (match, []int) {
	sort.SliceStable(ms, func(i, j int) bool { return r.less(ms[i], ms[j]) })
	var cands []int
	for _, m := range ms[1:] {
		if !r.tie(ms[0], m) {
			break
		}
		cands = append(cands, m.start)
	}
	return ms[0], cands
}

// less orders by compareRank, then the earliest start.
func (r *resolver) less(a, b match) bool {
	if c := r.compareRank(a, b); c != 0 {
		return c < 0
	}
	return a.start < b.start
}

// tie reports whether a and b are equally good: they differ at most in
// where they start.
func (r *resolver) tie(a, b match) bool { return r.compareRank(a, b) == 0 }

// compareRank orders a before b (-1) when it is the better place, in the
// order rank documents, the start line aside.
func (r *resolver) compareRank(a, b match) int {
	if c := cmp.Compare(outside(a), outside(b)); c != 0 {
		return c
	}
	if c := cmp.Compare(r.dist(a), r.dist(b)); c != 0 {
		return c
	}
	if c := cmp.Compare(r.startDist(a), r.startDist(b)); c != 0 {
		return c
	}
	if c := cmp.Compare(a.end-a.start, b.end-b.start); c != 0 {
		return c
	}
	return cmp.Compare(b.changed, a.changed)
}

// outside is 1 for a match that no single hunk holds, 0 otherwise.
func outside(m match) int {
	if m.hunk < 0 {
		return 1
	}
	return 0
}

// startDist breaks ties between ranges that both hold the hint: the one
// starting nearer to it.
func (r *resolver) startDist(m match) int {
	if r.hint <= 0 {
		return 0
	}
	return max(m.start-r.hint, r.hint-m.start)
}

// dist is how far m lies from the hint; 0 for every match without one.
func (r *resolver) dist(m match) int {
	if r.hint <= 0 {
		return 0
	}
	switch {
	case r.hint < m.start:
		return m.start - r.hint
	case r.hint > m.end:
		return r.hint - m.end
	}
	return 0
}
