package agent

import (
	"strings"

	"github.com/ocr-ci/ocr/anchor"
	"github.com/ocr-ci/ocr/review"
	"github.com/ocr-ci/ocr/tools"
)

// keep records a comment placed at call time and says where it landed.
// A comment that matches a held ambiguous one (anchor.Focus's rule)
// replaces it in its arrival slot, so a finding sent again never appears
// twice; without a suggestion it goes back onto the held quote's line, the
// longer quote only choosing among its places. A comment whose own quote
// is ambiguous is held at Resolve's best-ranked place: that place stands
// unless the model names another (choose) or sends it again.
//
// The model is asked where an ambiguous comment belongs once, in a small
// request of its own after the call (choose): keep reports, by its arrival
// number, a comment to ask about (0 for none); a re-send inherits the held
// comment's asking, so it is not asked again.
func (t *task) keep(c review.Comment, places []int, call int) (tools.Placement, int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	e := indexed{c: c, call: call}
	i := t.heldMatch(c, places, call)
	if i >= 0 {
		held := t.comments[i]
		e.n, e.asked = held.n, held.asked
		e.c, e.focus = refined(c, places, *held.focus)
	} else {
		t.seq++
		e.n = t.seq
		if f, ok := anchor.NewFocus(c.ExistingCode, c.Location, places); ok {
			e.focus = &f
		}
	}
	ask := e.focus != nil && !e.asked
	e.asked = e.asked || ask
	if i >= 0 {
		t.comments[i] = e
	} else {
		t.comments = append(t.comments, e)
	}
	if ask {
		return placement(e, i >= 0), e.n
	}
	return placement(e, i >= 0), 0
}

// refined is a re-sent comment c (its quote matched at places) placed on
// the held focus f, with the focus it keeps (nil once unambiguous). A
// suggestion replaces the quoted lines, so a comment with one keeps its
// own, longer range; so does one matched by the looser rule, which holds
// none of f's places.
func refined(c review.Comment, places []int, f anchor.Focus) (review.Comment, *anchor.Focus) {
	loc, nf, ok := f.Refine(c.Location, places)
	if c.Suggestion != "" || !ok { // as a comment of its own, in the held one's slot
		if own, ok := anchor.NewFocus(c.ExistingCode, c.Location, places); ok {
			return c, &own
		}
		return c, nil
	}
	c.Location, c.ExistingCode = loc, f.Code
	c.Fingerprint = review.Fingerprint(loc.Path, c.Category, c.ExistingCode)
	if len(loc.Candidates) == 0 {
		return c, nil
	}
	return c, &nf
}

// heldMatch is the index of the held comment c replaces, -1 for none:
// one that c matches by anchor.Focus's rule, else one whose quote c's
// contains on the same path with a text that says the same
// (review.SameCodeSimilarity): a re-send whose longer quote was found
// elsewhere first is still the same finding. Comments of the same call
// never replace each other (two findings may quote the same line). Among
// several, the one whose text shares the most words with c's, then the
// earliest.
func (t *task) heldMatch(c review.Comment, places []int, call int) int {
	for _, strict := range []bool{true, false} {
		best, score := -1, -1
		for i, e := range t.comments {
			if e.focus == nil || e.call == call || !resends(e, c, places, strict) {
				continue
			}
			if s := sharedWords(e.c.Content, c.Content); s > score || (s == score && e.n < t.comments[best].n) {
				best, score = i, s
			}
		}
		if best >= 0 {
			return best
		}
	}
	return -1
}

// resends reports whether c is held comment e sent again, by the strict
// rule or the looser one.
func resends(e indexed, c review.Comment, places []int, strict bool) bool {
	if strict {
		return e.focus.Matches(c.ExistingCode, c.Location, places)
	}
	return e.focus.Quoted(c.Path, c.ExistingCode) && review.Similarity(e.c.Content, c.Content) >= review.SameCodeSimilarity
}

// sharedWords counts the distinct words a and b have in common.
func sharedWords(a, b string) int {
	in := map[string]bool{}
	for _, w := range strings.Fields(strings.ToLower(a)) {
		in[w] = true
	}
	n := 0
	for _, w := range strings.Fields(strings.ToLower(b)) {
		if in[w] {
			n++
			delete(in, w)
		}
	}
	return n
}

// placement is what the model is told about a kept comment: for one
// still ambiguous, the places its quote matched.
func placement(e indexed, replaced bool) tools.Placement {
	l := e.c.Location
	p := tools.Placement{Path: l.Path, Side: string(l.Side), StartLine: l.StartLine, EndLine: l.EndLine, Replaced: replaced}
	if e.focus != nil {
		p.Also = e.focus.Starts
	}
	return p
}
