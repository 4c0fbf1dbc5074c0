package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"

	"github.com/ocr-ci/ocr/anchor"
	"github.com/ocr-ci/ocr/review"
)

// The re-send rows (issue 13) play a scripted model that quotes only one
// line whose text occurs more than once on its side of the file, with no
// hint. Where the resolver reports the quote ambiguous (Candidates), the
// model is told so and sends the comment again quoting 1–3 neighbouring
// lines of the hunk with it (once more with 3 when that is still
// ambiguous); the agent's rule (anchor.Focus) decides whether the re-send
// replaces the held comment and where it then goes. A re-send the rule
// does not match would be a second comment on the same finding: a
// duplicate. Ignoring the feedback leaves the held place, which is
// Resolve's answer.

// maxResends is how often the scripted model sends one comment again.
const maxResends = 3

// resendStats are the figures of the re-send rows.
type resendStats struct {
	n, today, exact, dups, resent, ambiguous int
	// around: the model quotes neighbours on both sides of the line, not
	// the line first as it is asked to.
	around bool
	// ordinary: of the quotes of an ordinary review (every sampled run,
	// unique or not), how many the resolver reports ambiguous.
	ordinaryN, ordinaryAmbiguous int
}

// oneLineAmbiguous takes every non-blank hunk line whose text occurs more
// than once on its side of the file (occurrences' rule).
func oneLineAmbiguous(cases []*diffCase) []sample {
	var out []sample
	for _, d := range cases {
		for fi := range d.files {
			f := &d.files[fi]
			if f.Binary {
				continue
			}
			for hi := range f.Hunks {
				h := &f.Hunks[hi]
				for li := range h.Lines {
					s, ok := newSample(d, f, h, h.Lines[li:li+1])
					if ok && occurrences(d, &s) == 2 {
						s.ambiguous = true
						out = append(out, s)
					}
				}
			}
		}
	}
	return out
}

// evaluateResend runs the scripted model over samples (the line first, as
// told, or with neighbours around it) and classifies the ordinary quotes.
func evaluateResend(ctx context.Context, rng *rand.Rand, samples, ordinary []sample, around bool) resendStats {
	st := resendStats{around: around}
	for i := range samples {
		st.one(ctx, rng, &samples[i])
	}
	for i := range ordinary {
		st.ordinaryN++
		if _, places := resolveCode(ctx, &ordinary[i], plain(&ordinary[i], texts(ordinary[i].lines)).code); len(places) > 1 {
			st.ordinaryAmbiguous++
		}
	}
	return st
}

// one plays one comment: quote the line, then re-send while told.
func (st *resendStats) one(ctx context.Context, rng *rand.Rand, s *sample) {
	st.n++
	code := s.lines[0].Text
	loc, places := resolveCode(ctx, s, code)
	if st.hit(s, loc) {
		st.today++
	}
	focus, held := anchor.NewFocus(code, loc, places)
	if held {
		st.ambiguous++
	}
	for try := 0; held && try < maxResends; try++ {
		st.resent++
		want := 1 + rng.IntN(3)
		if try > 0 {
			want = 3
		}
		before := 0 // as told: the line first, then the lines after it
		if st.around {
			before = rng.IntN(want + 1)
		}
		if try == 2 { // still ambiguous twice: 3 lines on each side
			want, before = 6, 3
		}
		quote := neighbours(s, want, before)
		again, aplaces := resolveCode(ctx, s, quote)
		if !focus.Matches(quote, again, aplaces) {
			if !focus.Quoted(again.Path, quote) {
				st.dups++ // the re-send would be a comment of its own
			}
			loc = again // the looser rule: it replaces the held one where it lies
			break
		}
		loc, focus, _ = focus.Refine(again, aplaces)
		held = len(loc.Candidates) > 0
	}
	if st.hit(s, loc) {
		st.exact++
	}
}

func (st *resendStats) hit(s *sample, loc review.Location) bool {
	return loc.Path == s.file.Path() && loc.Side == s.side && loc.StartLine == s.start && loc.EndLine == s.end
}

func resolveCode(ctx context.Context, s *sample, code string) (review.Location, []int) {
	return anchor.ResolveAll(ctx, anchor.Query{Path: s.file.Path(), Code: code}, s.d.cs, s.d.opts)
}

// neighbours is the sample's line with want non-blank lines around it,
// before of them before it and the rest after (the other way when one end
// is reached), as a model copies them: from the new file (file_read) for
// a new-side line, from the hunk's old side for a deleted one.
func neighbours(s *sample, want, before int) string {
	side, at := quotable(s)
	lo, hi := at, at
	for got := 0; got < want; got++ {
		switch {
		case (got < before || hi+1 >= len(side)) && lo > 0:
			lo = extend(side, lo, -1)
		case hi+1 < len(side):
			hi = extend(side, hi, 1)
		}
	}
	return strings.Join(side[lo:hi+1], "\n") + "\n"
}

// quotable are the lines a model can quote around s, and s's index.
func quotable(s *sample) ([]string, int) {
	if s.side == review.SideNew {
		if lines, ok := s.d.newFiles[s.file.NewPath]; ok && s.start <= len(lines) {
			return lines, s.start - 1
		}
	}
	var side []string
	at := -1
	for _, l := range sideLines(s) {
		if l == s.lines[0] {
			at = len(side)
		}
		side = append(side, l.Text)
	}
	return side, at
}

// extend moves i one non-blank line in direction dir, through blank lines.
func extend(side []string, i, dir int) int {
	for i+dir >= 0 && i+dir < len(side) {
		i += dir
		if !blank(side[i]) {
			return i
		}
	}
	return i
}

// printResend writes the re-send rows.
func printResend(w io.Writer, rows []resendStats) {
	st := rows[0]
	fmt.Fprintf(w, "\nre-send (issue 13): %d one-line ambiguous quotes, no hint; %d matched more than once in the file\n", st.n, st.ambiguous)
	fmt.Fprintf(w, "  exact start and end line, model ignores the feedback (= Resolve today): %s\n", pct(st.today, st.n))
	for _, r := range rows {
		how := "the line first, then 1-3 after it (as told)"
		if r.around {
			how = "1-3 neighbours around the line (not as told)"
		}
		fmt.Fprintf(w, "  re-sends %s: exact %s, re-sends %d (%.2f per ambiguous comment), duplicates %d\n",
			how, pct(r.exact, r.n), r.resent, float64(r.resent)/float64(max(r.ambiguous, 1)), r.dups)
	}
	if st.ordinaryN > 0 {
		fmt.Fprintf(w, "  ordinary quotes (every sampled 1-4 line run): %s of %d matched more than once (asked which place)\n", pct(st.ordinaryAmbiguous, st.ordinaryN), st.ordinaryN)
	}
}

// resendTargets lists the targets of issue 13 that were missed: at least
// 95% exact (93% on -short, whose 500 samples, many from this repository's
// own goldens with repeated blocks, move by about 1.5 points as its history
// grows) and no duplicate.
func resendTargets(st resendStats, short bool) []string {
	var missed []string
	need := 95.0
	if short {
		need = 93
	}
	if st.n > 0 && 100*float64(st.exact)/float64(st.n) < need {
		missed = append(missed, fmt.Sprintf("re-send: exact %s < %.0f%%", pct(st.exact, st.n), need))
	}
	if st.dups > 0 {
		missed = append(missed, fmt.Sprintf("re-send: %d duplicates", st.dups))
	}
	return missed
}
