package tools

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// maxListedCandidates bounds the line numbers an ambiguous placement
// lists: the result is re-sent with every later turn.
const maxListedCandidates = 6

// Placement is where one comment of a code_comment call landed, as the
// model is told in the call's result.
type Placement struct {
	Path string
	// Side is "new" or "old"; StartLine is 0 when the comment has no line.
	Side               string
	StartLine, EndLine int
	// Also are the start lines of every place the quote matched when it
	// matched several and the choice among them was not made: the comment
	// stays at StartLine, the best-ranked place, and is marked ambiguous.
	Also []int
	// Later: the quote was not found as sent; the comment is placed after
	// the call (one relocation request), so the result cannot say where.
	Later bool
	// Replaced: this comment replaced an ambiguous one sent earlier.
	Replaced bool
}

// PlacedText is code_comment's result once the comments are placed: one
// short line per comment saying where it landed. It starts with the
// spec's text.
func PlacedText(ps []Placement) string {
	if len(ps) == 1 {
		return strings.TrimSuffix(commentedText, ".") + ": " + ps[0].describe() + "."
	}
	var b strings.Builder
	b.WriteString(commentedText)
	for i, p := range ps {
		fmt.Fprintf(&b, "\n%d. %s", i+1, p.describe())
	}
	return b.String()
}

// describe is one comment's line of the result.
func (p Placement) describe() string {
	switch {
	case p.Later:
		return p.Path + ": quote not found in the diff as sent; it will be located separately"
	case p.StartLine == 0:
		return p.Path + " (file-level)"
	}
	where := p.Path + ":" + strconv.Itoa(p.StartLine)
	if p.EndLine > p.StartLine {
		where += "-" + strconv.Itoa(p.EndLine)
	}
	s := fmt.Sprintf("placed at %s (%s side)", where, p.Side)
	if p.Replaced {
		s += ", replacing the ambiguous one"
	}
	if len(p.Also) > 0 {
		s += fmt.Sprintf("; the quote matches lines %s, it stays at %d, the best-ranked, marked ambiguous", lineList(p.Also), p.StartLine)
	}
	return s
}

// lineList is "12, 40, 88", cut after maxListedCandidates numbers.
func lineList(ls []int) string {
	ls = slices.Sorted(slices.Values(ls))
	parts := make([]string, 0, min(len(ls), maxListedCandidates)+1)
	for _, l := range ls[:min(len(ls), maxListedCandidates)] {
		parts = append(parts, strconv.Itoa(l))
	}
	if len(ls) > maxListedCandidates {
		parts = append(parts, fmt.Sprintf("and %d more", len(ls)-maxListedCandidates))
	}
	return strings.Join(parts, ", ")
}
