package anchor

// tokenSlide counts the tokens of a window sliding along a sequence and
// how many of them the quote has (need: its count of each token id). The
// window's bound is the score it would have if every token it shares with
// the quote (counted as multisets: no LCS is longer) were in order.
type tokenSlide struct {
	local           []int32 // quoteTokens.local
	need, have      []int32 // by the quote's token index
	want            int     // the quote's token count
	tokens, overlap int
}

func newTokenSlide(q *quoteTokens) *tokenSlide {
	s := &tokenSlide{local: q.local, need: make([]int32, 2*q.distinct), want: len(q.want)}
	s.need, s.have = s.need[:q.distinct], s.need[q.distinct:]
	for _, i := range q.want {
		if i >= 0 {
			s.need[i]++
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
		if i := s.local[id] - 1; i >= 0 {
			if s.have[i] < s.need[i] {
				s.overlap++
			}
			s.have[i]++
		}
	}
	s.tokens += len(line)
}

func (s *tokenSlide) remove(line []int32) {
	for _, id := range line {
		if i := s.local[id] - 1; i >= 0 {
			s.have[i]--
			if s.have[i] < s.need[i] {
				s.overlap--
			}
		}
	}
	s.tokens -= len(line)
}
