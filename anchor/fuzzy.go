package anchor

import (
	"github.com/ocr-ci/ocr/anchor/udiff"
	"github.com/ocr-ci/ocr/review"
)

// Fuzzy matching settings: a window of as many lines as the snippet must
// share this fraction of tokens, in order (2·LCS / total tokens), and the
// snippet must be long enough for the ratio to mean something.
const (
	fuzzyThreshold = 0.85
	fuzzyMinTokens = 6
)

// fuzzy is the step after every exact attempt failed: the best window of
// the same file whose token sequence is close enough to the snippet's,
// over both sides of the hunks and the whole new file (on equal scores in
// that order). It never crosses into another file.
func (r *resolver) fuzzy(path string, sn *snippet) (review.Location, bool) {
	i, inCS := r.cs.lookup(path)
	var f *udiff.File
	best, bestScore := review.Location{}, 0.0
	consider := func(ms []match, score float64, slot int, method review.Method, p string) {
		if len(ms) > 0 && score > bestScore+1e-9 {
			best, bestScore = r.location(f, p, slot, ms, method), score
		}
	}
	if inCS {
		f = &r.cs.files[i]
		idx := r.cs.index(i)
		for slot := range idx.sides {
			ms, score := fuzzyFind(&idx.sides[slot].seq, sn.fuzzyTokens(slot), true)
			consider(ms, score, slot, review.MethodFuzzy, "")
		}
	}
	if whole := r.wholeSeq(path, f); whole != nil {
		ms, score := fuzzyFind(whole, sn.fuzzyTokens(0), false)
		consider(ms, score, 0, review.MethodFuzzy, path)
	}
	return best, bestScore > 0
}

// fuzzyTokens returns the snippet's lines for side slot as token lists,
// diff markers stripped, lines of the other side of a "-/+" pair and
// ellipsis lines left out.
func (sn *snippet) fuzzyTokens(slot int) [][]string {
	var out [][]string
	for _, it := range sn.pattern(levelPairs, slot) {
		if !it.gap {
			out = append(out, tokens(it.alt))
		}
	}
	return out
}

// fuzzyFind returns the best-scoring windows of seq at or above the
// threshold (several only when they score the same) and their score.
func fuzzyFind(seq *sequence, snip [][]string, oneHunk bool) ([]match, float64) {
	n := len(snip)
	vocab, ids := seq.tokenIDs()
	want, seen := snippetIDs(vocab, snip)
	if n == 0 || len(want) < fuzzyMinTokens || len(seq.lines) < n {
		return nil, 0
	}
	shared := sharedTokens(ids, seen)
	var best []match
	bestScore := fuzzyThreshold
	for p := 0; p+n <= len(seq.lines); p++ {
		if oneHunk && seq.lines[p].hunk != seq.lines[p+n-1].hunk {
			continue
		}
		total, common := len(want), 0
		for q := p; q < p+n; q++ {
			total += len(ids[q])
			common += shared[q]
		}
		if 2*float64(min(common, len(want)))/float64(total) < bestScore-1e-9 {
			continue // cannot reach the best score so far
		}
		s := 2 * float64(lcs(want, ids[p:p+n])) / float64(total)
		if s < bestScore-1e-9 {
			continue
		}
		if s > bestScore+1e-9 {
			best, bestScore = best[:0], s
		}
		best = append(best, windowMatch(seq, p, p+n-1))
	}
	return best, bestScore
}

// snippetIDs maps the snippet's tokens to seq's ids (-1, equal to none,
// for a token seq lacks) and marks the ids it uses.
func snippetIDs(vocab map[string]int32, snip [][]string) (want []int32, seen []bool) {
	seen = make([]bool, len(vocab))
	for _, line := range snip {
		for _, t := range line {
			id, ok := vocab[t]
			if !ok {
				id = -1 // never equal to a token of seq
			} else {
				seen[id] = true
			}
			want = append(want, id)
		}
	}
	return want, seen
}

// sharedTokens counts, per line, the tokens that also occur in the
// snippet: an upper bound of what a window can have in common with it.
func sharedTokens(ids [][]int32, seen []bool) []int {
	shared := make([]int, len(ids))
	for i, line := range ids {
		for _, id := range line {
			if seen[id] {
				shared[i]++
			}
		}
	}
	return shared
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

// lcs is the length of the longest common subsequence of a and the
// concatenation of bs.
func lcs[T comparable](a []T, bs [][]T) int {
	prev := make([]int, len(a)+1)
	cur := make([]int, len(a)+1)
	for _, b := range bs {
		for _, t := range b {
			for i := range a {
				switch {
				case a[i] == t:
					cur[i+1] = prev[i] + 1
				case cur[i] >= prev[i+1]:
					cur[i+1] = cur[i]
				default:
					cur[i+1] = prev[i+1]
				}
			}
			prev, cur = cur, prev
		}
	}
	return prev[len(a)]
}

// tokens splits a normalised line into identifiers/numbers and single
// punctuation characters.
func tokens(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		switch c := s[i]; {
		case c == ' ':
			i++
		case isWord(c):
			j := i
			for j < len(s) && isWord(s[j]) {
				j++
			}
			out = append(out, s[i:j])
			i = j
		default:
			out = append(out, s[i:i+1])
			i++
		}
	}
	return out
}

func isWord(c byte) bool {
	return c == '_' || c >= 0x80 || (c >= '0' && c <= '9') || (c|0x20 >= 'a' && c|0x20 <= 'z')
}
