package anchor

import (
	"context"

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

// The bounds of the fuzzy step, so that a quote costs milliseconds
// whatever the file (issue 23): a quote of more than fuzzyMaxTokens tokens
// is compared only with the windows its distinctive lines (lines found
// once in the file) point at, at most fuzzyAnchored of them; and one
// resolution spends at most fuzzyMaxOps word operations on LCS
// computations (bitLCS; tens of milliseconds) before it gives up with
// the best window found so far.
const (
	fuzzyMaxTokens = 400
	fuzzyAnchored  = 4
	fuzzyMaxOps    = 1 << 25
)

// fuzzyWork is one resolution's fuzzy budget: the word operations it may
// still spend, the LCS computations made (a work counter for tests), and
// the context whose end stops it.
type fuzzyWork struct {
	ctx  context.Context
	ops  int
	runs int
}

// spend takes n operations for one LCS computation; false when the
// budget or the context is over.
func (w *fuzzyWork) spend(n int) bool {
	if n > w.ops || w.ctx.Err() != nil {
		return false
	}
	w.ops -= n
	w.runs++
	return true
}

// fuzzy is the step after every exact attempt failed: the best window of
// the same file whose token sequence is close enough to the snippet's,
// over both sides of the hunks and the whole new file (on equal scores in
// that order). It never crosses into another file, and stops when ctx
// ends.
func (r *resolver) fuzzy(ctx context.Context, path string, sn *snippet) (review.Location, bool) {
	r.work = &fuzzyWork{ctx: ctx, ops: fuzzyMaxOps}
	i, inCS := r.cs.lookup(path)
	var f *udiff.File
	best, bestScore := review.Location{}, 0.0
	consider := func(ms []match, score float64, slot int, method review.Method, p string) {
		if len(ms) > 0 && score > bestScore+1e-9 {
			best, bestScore = r.location(f, p, slot, ms, method), score
		}
	}
	newQuote := sn.fuzzyQuote(0) // slot 0, the new side: its hunks and the whole new file
	if inCS {
		f = &r.cs.files[i]
		idx := r.cs.index(i)
		for slot := range idx.sides {
			q := newQuote
			if slot != 0 {
				q = sn.fuzzyQuote(slot)
			}
			ms, score := fuzzyFind(&idx.sides[slot].seq, q, true, r.work)
			consider(ms, score, slot, review.MethodFuzzy, "")
		}
	}
	if whole := r.wholeSeq(path, f); whole != nil {
		ms, score := fuzzyFind(whole, newQuote, false, r.work)
		consider(ms, score, 0, review.MethodFuzzy, path)
	}
	return best, bestScore > 0
}

// quote is a snippet's lines as the fuzzy step reads them: normalised
// text and tokens, line by line.
type quote struct {
	lines []string
	toks  [][]string
}

// fuzzyQuote returns the snippet's lines for side slot, diff markers
// stripped, lines of the other side of a "-/+" pair and ellipsis lines
// left out.
func (sn *snippet) fuzzyQuote(slot int) quote {
	var q quote
	for _, it := range sn.pattern(levelPairs, slot) {
		if !it.gap {
			q.lines = append(q.lines, it.alt)
			q.toks = append(q.toks, tokens(it.alt))
		}
	}
	return q
}
