package anchor

import (
	"cmp"
	"maps"
	"slices"

	"github.com/ocr-ci/ocr/anchor/udiff"
)

// window is a place of a sequence where a quote of n lines could be: its
// first position, its token count and an upper bound of its score.
type window struct {
	p, tokens int
	bound     float64
}

// fuzzyFind returns the best-scoring windows of seq at or above the
// threshold (several only when they score the same) and their score.
// Windows are compared best bound first, and the search ends at the first
// whose bound cannot reach the best score so far, or when w is spent.
func fuzzyFind(seq *sequence, q quote, oneHunk bool, w *fuzzyWork) ([]match, float64) {
	n := len(q.toks)
	if n == 0 || len(seq.lines) < n {
		return nil, 0
	}
	vocab, ids := seq.tokenIDs()
	qt := newQuoteTokens(vocab, q.toks)
	want := qt.want
	if len(want) < fuzzyMinTokens {
		return nil, 0
	}
	bounds := newTokenSlide(qt)
	var cands []window
	if len(want) > fuzzyMaxTokens {
		cands = bounds.at(seq, ids, anchoredStarts(seq, q.lines, len(seq.lines)-n), oneHunk, n)
	} else {
		cands = bounds.all(seq, ids, oneHunk, n)
	}
	slices.SortFunc(cands, func(a, b window) int { return cmp.Or(cmp.Compare(b.bound, a.bound), cmp.Compare(a.p, b.p)) })
	l := newBitLCS(qt)
	var best []match
	bestScore := fuzzyThreshold
	for _, c := range cands {
		if c.bound < bestScore-1e-9 || !w.spend(l.words*c.tokens) {
			break
		}
		s := 2 * float64(l.length(ids[c.p:c.p+n])) / float64(len(want)+c.tokens)
		if s < bestScore-1e-9 {
			continue
		}
		if s > bestScore+1e-9 {
			best, bestScore = best[:0], s
		}
		best = append(best, windowMatch(seq, c.p, c.p+n-1))
	}
	return best, bestScore
}

// anchoredStarts are the window starts (0..last) that the quote's
// distinctive lines, found exactly once in seq, put it at: the most
// pointed at first, at most fuzzyAnchored.
func anchoredStarts(seq *sequence, lines []string, last int) []int {
	votes := map[int]int{}
	for i, l := range lines {
		if at := seq.first[l]; len(at) == 1 && at[0]-i >= 0 && at[0]-i <= last {
			votes[at[0]-i]++
		}
	}
	starts := slices.Collect(maps.Keys(votes))
	slices.SortFunc(starts, func(a, b int) int { return cmp.Or(cmp.Compare(votes[b], votes[a]), cmp.Compare(a, b)) })
	return starts[:min(len(starts), fuzzyAnchored)]
}

// quoteTokens is a quote's tokens in a sequence's terms. Only the
// quote's distinct tokens matter, so they get small indexes: want holds
// each token's index (-1 for a token seq lacks), and local maps seq's
// token ids to index+1 (0: a token the quote lacks).
type quoteTokens struct {
	want     []int32
	local    []int32
	distinct int
}

func newQuoteTokens(vocab map[string]int32, snip [][]string) *quoteTokens {
	var ids []int32
	for _, line := range snip {
		for _, t := range line {
			id, ok := vocab[t]
			if !ok {
				id = -1 // never equal to a token of seq
			}
			ids = append(ids, id)
		}
	}
	return quoteOf(ids, len(vocab))
}

// quoteOf is the quoteTokens of a quote given as seq's token ids (-1 for
// a token seq lacks), vocab being seq's number of ids.
func quoteOf(ids []int32, vocab int) *quoteTokens {
	q := &quoteTokens{want: ids, local: make([]int32, vocab)}
	for i, id := range ids {
		if id < 0 {
			continue
		}
		if q.local[id] == 0 {
			q.distinct++
			q.local[id] = int32(q.distinct)
		}
		q.want[i] = q.local[id] - 1
	}
	return q
}

// windowMatch is the match of positions p..e of seq with its changed lines.
func windowMatch(seq *sequence, p, e int) match {
	m := seq.window(p, e)
	for q := p; q <= e; q++ {
		if seq.lines[q].kind != udiff.Context {
			m.changed++
		}
	}
	return m
}
