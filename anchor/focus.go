package anchor

import (
	"slices"
	"strings"

	"github.com/ocr-ci/ocr/internal/review"
)

// Focus is a comment whose quote matched several places equally well: the
// agent keeps it at the best-ranked place (Resolve's answer) and asks the
// model to send it again quoting one to three neighbouring lines too.
//
// A comment sent again is this one when all of these hold (Matches):
//   - it is filed on the same path, on the same side;
//   - its quote contains this quote as consecutive lines (compared the way
//     Resolve compares: trimmed, whitespace collapsed, one diff marker
//     dropped, blank lines ignored);
//   - its place, or one of its equally good places, holds at least one of
//     this quote's places (Starts).
//
// The re-sent quote then says which of Starts was meant: Refine moves the
// comment back onto that one, so the longer quote only disambiguates.
type Focus struct {
	Path string
	Side review.Side
	// Code is the quote as the model first sent it.
	Code string
	// Starts are the start lines of every equally good place, the chosen
	// one first; each spans Span more lines.
	Starts []int
	Span   int
}

// NewFocus returns the focus of a comment quoting code placed at loc; ok is
// false when loc is not ambiguous (no candidates, or file-level).
func NewFocus(code string, loc review.Location) (Focus, bool) {
	if loc.FileLevel() || len(loc.Candidates) == 0 {
		return Focus{}, false
	}
	starts := append([]int{loc.StartLine}, loc.Candidates...)
	return Focus{Path: loc.Path, Side: loc.Side, Code: code, Starts: starts, Span: loc.EndLine - loc.StartLine}, true
}

// Matches reports whether a comment quoting code placed at loc is this
// comment sent again (the rule on Focus).
func (f Focus) Matches(code string, loc review.Location) bool {
	if loc.FileLevel() || loc.Path != f.Path || loc.Side != f.Side || !containsQuote(code, f.Code) {
		return false
	}
	_, _, ok := f.Refine(loc)
	return ok
}

// Refine places a comment sent again, found at loc, back on f's quote: on
// the one place of f that loc (or one of loc's equally good places) holds.
// When it holds several, the comment goes on the first of them in f's
// order, the others become its Candidates, and the returned focus keeps
// only them. ok is false (loc unchanged) when loc holds none.
func (f Focus) Refine(loc review.Location) (review.Location, Focus, bool) {
	if loc.FileLevel() {
		return loc, f, false
	}
	span := loc.EndLine - loc.StartLine
	ranges := append([]int{loc.StartLine}, loc.Candidates...)
	var in []int
	for _, s := range f.Starts {
		if slices.ContainsFunc(ranges, func(r int) bool { return s >= r && s+f.Span <= r+span }) {
			in = append(in, s)
		}
	}
	if len(in) == 0 {
		return loc, f, false
	}
	loc.StartLine, loc.EndLine, loc.Candidates = in[0], in[0]+f.Span, nil
	if len(in) > 1 {
		loc.Candidates = in[1:]
	}
	f.Starts = in
	return loc, f, true
}

// containsQuote reports whether outer holds inner's lines consecutively,
// after the normalisation Resolve uses; an empty inner is never held.
func containsQuote(outer, inner string) bool {
	in, out := quoteLines(inner), quoteLines(outer)
	if len(in) == 0 {
		return false
	}
	for i := 0; i+len(in) <= len(out); i++ {
		if slices.Equal(out[i:i+len(in)], in) {
			return true
		}
	}
	return false
}

// quoteLines are a quote's non-blank lines, normalised without a diff marker.
func quoteLines(code string) []string {
	var out []string
	for _, l := range strings.Split(code, "\n") {
		n, _ := stripMarker(normalize(l))
		if n != "" {
			out = append(out, n)
		}
	}
	return out
}
