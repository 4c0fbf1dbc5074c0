// Package vote groups the findings of several independent reviews (passes)
// of the same files and keeps those that enough passes found: one finding
// per group, the best-written one, with its votes. Pure: values in, values
// out, and the result does not depend on the order of the input.
package vote

import (
	"cmp"
	"slices"

	"github.com/ocr-ci/ocr/review"
)

// Adjacent is how many lines may separate two findings' ranges for them to
// be about the same code: a model quoting the line before or after.
const Adjacent = 1

// Similar is the text similarity (review.Similarity) from which two
// findings at the same place and of the same category say the same thing.
// Same-place findings of one issue score 0.34 and up in review's
// paraphrase table; different issues on the same lines 0.05-0.2.
const Similar = review.SameCodeSimilarity

// Finding is one comment of one pass (numbered from 0).
type Finding struct {
	Pass    int
	Comment review.Comment
}

// Cluster is the findings of every pass that say the same thing about the
// same code.
type Cluster struct {
	Members []Finding
}

// Votes is the number of distinct passes among the members.
func (c Cluster) Votes() int {
	seen := map[int]bool{}
	for _, m := range c.Members {
		seen[m.Pass] = true
	}
	return len(seen)
}

// Majority is the default number of votes a finding needs: more than half
// of the passes.
func Majority(passes int) int { return max(passes, 1)/2 + 1 }

// Keep clusters the passes' findings and returns the best member of each
// cluster that at least minVotes passes found, with Votes set to its
// cluster's votes of passes, and how many distinct findings (clusters)
// fewer passes found: those are outvoted. The other members of a kept
// cluster are the same finding again, neither kept nor outvoted. The
// result is ordered like review.Dedupe's.
func Keep(findings []Finding, passes, minVotes int) (kept []review.Comment, outvoted int) {
	for _, c := range Group(findings) {
		v := c.Votes()
		if v < minVotes {
			outvoted++
			continue
		}
		best := c.Best()
		best.Votes = &review.Votes{Found: v, Passes: passes}
		kept = append(kept, best)
	}
	slices.SortStableFunc(kept, func(a, b review.Comment) int { return cmp.Compare(b.Severity.Rank(), a.Severity.Rank()) })
	return kept, outvoted
}

// Group clusters the findings: each joins the cluster holding the finding
// most similar to it among those it matches (Match), or starts its own.
// The findings are taken in a canonical order, so the clusters do not
// depend on the order of the input.
func Group(findings []Finding) []Cluster {
	sorted := slices.Clone(findings)
	slices.SortStableFunc(sorted, canonical)
	var out []Cluster
	for _, f := range sorted {
		best, score := -1, -1.0
		for i, c := range out {
			if s, ok := c.match(f.Comment); ok && s > score {
				best, score = i, s
			}
		}
		if best < 0 {
			out = append(out, Cluster{Members: []Finding{f}})
			continue
		}
		out[best].Members = append(out[best].Members, f)
	}
	return out
}

// match is the highest similarity between c and a member it matches.
func (c Cluster) match(x review.Comment) (float64, bool) {
	best, ok := 0.0, false
	for _, m := range c.Members {
		if s, yes := Match(m.Comment, x); yes && (!ok || s > best) {
			best, ok = s, true
		}
	}
	return best, ok
}

// Match reports whether a and b are the same finding as two passes would
// write it: same path and side, overlapping or adjacent lines (or both
// about the whole file), same category, and texts at least Similar; it
// returns their similarity.
func Match(a, b review.Comment) (float64, bool) {
	if a.Path != b.Path || a.Side != b.Side || a.Category != b.Category || a.FileLevel() != b.FileLevel() {
		return 0, false
	}
	if !a.FileLevel() && (last(a)+Adjacent < b.StartLine || last(b)+Adjacent < a.StartLine) {
		return 0, false
	}
	s := review.Similarity(a.Content, b.Content)
	return s, s >= Similar
}

// last is a comment's last line.
func last(c review.Comment) int { return max(c.EndLine, c.StartLine) }

// Best is the cluster's best-written member: the one whose text says most
// of what the others say (the highest mean similarity to them), then one
// with a suggestion, then one inside the diff, then the shorter text.
func (c Cluster) Best() review.Comment {
	type scored struct {
		f       Finding
		central float64
	}
	all := make([]scored, len(c.Members))
	for i, m := range c.Members {
		all[i] = scored{f: m, central: c.centrality(i)}
	}
	best := slices.MinFunc(all, func(a, b scored) int {
		return cmp.Or(cmp.Compare(b.central, a.central),
			boolFirst(a.f.Comment.Suggestion != "", b.f.Comment.Suggestion != ""),
			boolFirst(a.f.Comment.InHunk, b.f.Comment.InHunk),
			cmp.Compare(len(a.f.Comment.Content), len(b.f.Comment.Content)),
			canonical(a.f, b.f))
	})
	return best.f.Comment
}

// centrality is member i's mean similarity to the other members.
func (c Cluster) centrality(i int) float64 {
	if len(c.Members) < 2 {
		return 1
	}
	sum := 0.0
	for j, m := range c.Members {
		if j != i {
			sum += review.Similarity(c.Members[i].Comment.Content, m.Comment.Content)
		}
	}
	return sum / float64(len(c.Members)-1)
}

// boolFirst orders true before false.
func boolFirst(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return -1
	}
	return 1
}

// canonical is a total order on findings: place, category, text, pass.
func canonical(a, b Finding) int {
	x, y := a.Comment, b.Comment
	return cmp.Or(cmp.Compare(x.Path, y.Path), cmp.Compare(x.Side, y.Side),
		cmp.Compare(x.StartLine, y.StartLine), cmp.Compare(x.EndLine, y.EndLine),
		cmp.Compare(x.Category, y.Category), cmp.Compare(y.Severity.Rank(), x.Severity.Rank()),
		cmp.Compare(x.Content, y.Content), cmp.Compare(x.ExistingCode, y.ExistingCode),
		cmp.Compare(x.Suggestion, y.Suggestion), cmp.Compare(a.Pass, b.Pass))
}

// Passes is Keep over the comments of each pass (passes[p] is pass p's),
// needing minVotes of len(passes).
func Passes(passes [][]review.Comment, minVotes int) (kept []review.Comment, outvoted int) {
	var all []Finding
	for p, cs := range passes {
		for _, c := range cs {
			all = append(all, Finding{Pass: p, Comment: c})
		}
	}
	return Keep(all, len(passes), minVotes)
}
