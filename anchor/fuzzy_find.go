package anchor

import (
	"cmp"
	"maps"
	"slices"
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
	vocab, ids := seq.tokenIDs()
	want := snippetIDs(vocab, q.toks)
	if n == 0 || len(want) < fuzzyMinTokens || len(seq.lines) < n {
		return nil, 0
	}
	bounds := newTokenSlide(want, len(vocab))
	var cands []window
	if len(want) > fuzzyMaxTokens {
		cands = bounds.at(seq, ids, anchoredStarts(seq, q.lines, len(seq.lines)-n), oneHunk, n)
	} else {
		cands = bounds.all(seq, ids, oneHunk, n)
	}
	slices.SortFunc(cands, func(a, b window) int { return cmp.Or(cmp.Compare(b.bound, a.bound), cmp.Compare(a.p, b.p)) })
	l := newBitLCS(want, len(vocab))
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

// tokenSlide counts the tokens of a window sliding along a sequence and
// how many of them the quote has (need: its count of each token id). The
// window's bound is the score it would have if every token it shares with
// the quote (counted as multisets: no LCS is longer) were in order.
type tokenSlide struct {
	need, have      []int32
	want            int // the quote's token count
	tokens, overlap int
}

func newTokenSlide(want []int32, vocab int) *tokenSlide {
	s := &tokenSlide{need: make([]int32, vocab), have: make([]int32, vocab), want: len(want)}
	for _, id := range want {
		if id >= 0 {
			s.need[id]++
		}
	}
	return s
}

// all lists the windows of n lines of seq (within one hunk when oneHunk)
// whose bound reaches the threshold, in one pass.
func (s *tokenSlide) all(seq *sequence, ids [][]int32, oneHunk bool, n int) []window {
	for q := range n - 1 {
		s.add(ids[q])
	}
	var out []window
	for p := 0; p+n <= len(seq.lines); p++ {
		s.add(ids[p+n-1])
		if w, ok := s.window(seq, p, oneHunk, n); ok {
			out = append(out, w)
		}
		s.remove(ids[p])
	}
	return out
}

// at is all for the windows starting at starts only.
func (s *tokenSlide) at(seq *sequence, ids [][]int32, starts []int, oneHunk bool, n int) []window {
	var out []window
	for _, p := range starts {
		for q := p; q < p+n; q++ {
			s.add(ids[q])
		}
		if w, ok := s.window(seq, p, oneHunk, n); ok {
			out = append(out, w)
		}
		for q := p; q < p+n; q++ {
			s.remove(ids[q])
		}
	}
	return out
}

// window is the window of the counted lines, which start at p, when its
// bound reaches the threshold.
func (s *tokenSlide) window(seq *sequence, p int, oneHunk bool, n int) (window, bool) {
	if oneHunk && seq.lines[p].hunk != seq.lines[p+n-1].hunk {
		return window{}, false
	}
	b := 2 * float64(s.overlap) / float64(s.want+s.tokens)
	return window{p: p, tokens: s.tokens, bound: b}, b >= fuzzyThreshold-1e-9
}

func (s *tokenSlide) add(line []int32) {
	for _, id := range line {
		if s.have[id] < s.need[id] {
			s.overlap++
		}
		s.have[id]++
	}
	s.tokens += len(line)
}

func (s *tokenSlide) remove(line []int32) {
	for _, id := range line {
		s.have[id]--
		if s.have[id] < s.need[id] {
			s.overlap--
		}
	}
	s.tokens -= len(line)
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

// snippetIDs maps the snippet's tokens to seq's ids; -1, equal to none,
// for a token seq lacks.
func snippetIDs(vocab map[string]int32, snip [][]string) []int32 {
	var want []int32
	for _, line := range snip {
		for _, t := range line {
			id, ok := vocab[t]
			if !ok {
				id = -1 // never equal to a token of seq
			}
			want = append(want, id)
		}
	}
	return want
}

// windowMatch is the match of positions p..e of seq with its changed lines.
func windowMatch(seq *sequence, p, e int) match {
	m := seq.window(p, e)
	for q := p; q <= e; q++ {
		if seq.lines[q].kind != Context {
			m.changed++
		}
	}
	return m
}
