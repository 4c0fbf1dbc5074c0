package anchor

import (
	"slices"
	"strings"

	"github.com/ocr-ci/ocr/review"
)

// Focus is a comment whose quote matched several places of its file: the
// agent holds it at the best-ranked place (Resolve's answer) and asks the
// model, once, which place it means; the answer's line goes through Refine.
//
// A comment the model sends again of its own accord is this one when all
// of these hold (Matches):
//   - it is filed on the same path, on the same side;
//   - its quote contains this quote as consecutive lines (compared the way
//     Resolve compares: trimmed, whitespace collapsed, one diff marker
//     dropped, blank lines ignored);
//   - one of the places its quote matched holds at least one of this
//     quote's places (Starts).
//
// The re-sent quote then says which of Starts was meant: Refine moves the
// comment back onto that one, so the longer quote only disambiguates.
type Focus struct {
	Path string
	Side review.Side
	// Code is the quote as the model first sent it.
	Code string
	// Starts are the start lines of every place the quote matched, in rank
	// order (the held one first); each spans Span more lines.
	Starts []int
	Span   int
}

// NewFocus returns the focus of a comment quoting code placed at loc, with
// places as ResolveAll returns them; ok is false when the quote matched
// one place only.
func NewFocus(code string, loc review.Location, places []int) (Focus, bool) {
	if loc.FileLevel() || len(places) < 2 {
		return Focus{}, false
	}
	return Focus{Path: loc.Path, Side: loc.Side, Code: code, Starts: slices.Clone(places), Span: loc.EndLine - loc.StartLine}, true
}

// Quoted reports whether a comment on path quoting code quotes this
// comment's quote, wherever it was placed: the looser test, for a re-send
// whose place holds none of Starts (its quote was found elsewhere first).
func (f Focus) Quoted(path, code string) bool {
	return path == f.Path && containsQuote(code, f.Code)
}

// Matches reports whether a comment quoting code, placed at loc and
// matching at places (ResolveAll's), is this comment sent again (the rule
// on Focus).
func (f Focus) Matches(code string, loc review.Location, places []int) bool {
	if loc.Path != f.Path || loc.Side != f.Side || !containsQuote(code, f.Code) {
		return false
	}
	_, _, ok := f.Refine(loc, places)
	return ok
}

// Refine places a comment sent again, found at loc and matching at places
// (ResolveAll's; nil when only at loc), back on f's quote: on the place of
// f that each such range holds. A range holding several gives the one at
// its start (the line the model was asked to quote first), else the one
// at its end, else all of them. One place left: the comment goes there.
// Several: it goes on the first in f's order and the others become its
// Candidates; the returned focus still holds every place, since the
// re-sent quote may have matched only in the wrong ones (a quote running
// past its hunk is found in other hunks first). ok is false (loc
// unchanged) when the ranges hold none.
func (f Focus) Refine(loc review.Location, places []int) (review.Location, Focus, bool) {
	if loc.FileLevel() {
		return loc, f, false
	}
	span := loc.EndLine - loc.StartLine
	ranges := places
	if len(ranges) == 0 {
		ranges = []int{loc.StartLine}
	}
	picked := map[int]bool{}
	for _, r := range ranges {
		for _, s := range f.within(r, r+span) {
			picked[s] = true
		}
	}
	var in []int
	for _, s := range f.Starts {
		if picked[s] {
			in = append(in, s)
		}
	}
	if len(in) == 0 {
		return loc, f, false
	}
	loc.StartLine, loc.EndLine, loc.Candidates = in[0], in[0]+f.Span, nil
	if len(in) > 1 {
		loc.Candidates = in[1:]
		return loc, f, true // keep every place: the re-sent quote may have matched the wrong ones
	}
	f.Starts = in
	return loc, f, true
}

// within is the place of f that the range start..end stands for: the one
// at its start, else at its end, else every one it holds.
func (f Focus) within(start, end int) []int {
	var out []int
	for _, s := range f.Starts {
		if s >= start && s+f.Span <= end {
			out = append(out, s)
		}
	}
	if len(out) > 1 {
		for _, s := range []int{start, end - f.Span} {
			if slices.Contains(out, s) {
				return []int{s}
			}
		}
	}
	return out
}

// containsQuote reports whether outer holds inner's lines consecutively,
// after the normalisation Resolve uses, with or without one diff marker
// per line; an empty inner is never held.
func containsQuote(outer, inner string) bool {
	for _, strip := range []bool{false, true} {
		in, out := quoteLines(inner, strip), quoteLines(outer, strip)
		if len(in) == 0 {
			continue
		}
		for i := 0; i+len(in) <= len(out); i++ {
			if slices.Equal(out[i:i+len(in)], in) {
				return true
			}
		}
	}
	return false
}

// quoteLines are a quote's non-blank lines, normalised, without a diff
// marker when strip is set.
func quoteLines(code string, strip bool) []string {
	var out []string
	for _, l := range strings.Split(code, "\n") {
		n := normalize(l)
		if strip {
			n, _ = stripMarker(n)
		}
		if n != "" {
			out = append(out, n)
		}
	}
	return out
}
