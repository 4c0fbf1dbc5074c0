package main

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/ocr-ci/ocr/anchor/udiff"
	"github.com/ocr-ci/ocr/review"
)

// query is one resolution to run with the place it should find.
type query struct {
	s          *sample
	path       string // the path the comment is filed on; the sample's when empty
	code       string
	hint       int
	start, end int
}

// perturbation turns a sample into what a model might quote; ok is false
// when it does not apply to the sample.
type perturbation struct {
	name  string
	apply func(rng *rand.Rand, s *sample) (query, bool)
}

var perturbations = []perturbation{
	{"none", func(_ *rand.Rand, s *sample) (query, bool) { return plain(s, texts(s.lines)), true }},
	{"reindent", reindent},
	{"trailing-space", trailing},
	{"diff-markers", markers},
	{"read-prefix", readPrefix},
	{"blank-end", blankEnd},
	{"context-line", contextLine},
	{"crlf", func(_ *rand.Rand, s *sample) (query, bool) {
		q := plain(s, texts(s.lines))
		q.code = strings.ReplaceAll(q.code, "\n", "\r\n") + "\r\n"
		return q, true
	}},
	{"partial-first", partialFirst},
	{"ellipsis", ellipsis},
}

func plain(s *sample, lines []string) query {
	return query{s: s, code: strings.Join(lines, "\n"), start: s.start, end: s.end}
}

func reindent(rng *rand.Rand, s *sample) (query, bool) {
	lines := texts(s.lines)
	mode := rng.IntN(3)
	for i, l := range lines {
		switch body := strings.TrimLeft(l, " \t"); mode {
		case 0:
			lines[i] = body
		case 1:
			lines[i] = strings.ReplaceAll(indentOf(l), "\t", "    ") + body
		default:
			lines[i] = "  " + l
		}
	}
	return plain(s, lines), true
}

func trailing(rng *rand.Rand, s *sample) (query, bool) {
	lines := texts(s.lines)
	for i := range lines {
		lines[i] += [...]string{" ", "  ", "\t"}[rng.IntN(3)]
	}
	return plain(s, lines), true
}

func markers(_ *rand.Rand, s *sample) (query, bool) {
	lines := texts(s.lines)
	for i, l := range s.lines {
		lines[i] = string(rune(l.Kind)) + l.Text
	}
	return plain(s, lines), true
}

// readPrefix quotes file_read output; file_read shows the new file only.
func readPrefix(_ *rand.Rand, s *sample) (query, bool) {
	if s.side != review.SideNew {
		return query{}, false
	}
	lines := texts(s.lines)
	for i, l := range s.lines {
		lines[i] = fmt.Sprintf("%d|%s", l.NewLine, l.Text)
	}
	return plain(s, lines), true
}

func blankEnd(rng *rand.Rand, s *sample) (query, bool) {
	q := plain(s, texts(s.lines))
	if rng.IntN(2) == 0 {
		q.code = "\n" + q.code
	} else {
		q.code += "\n\n"
	}
	return q, true
}

// contextLine adds the neighbouring line (above or below, on the sample's
// side of the hunk) and every blank line in between; the truth grows.
func contextLine(rng *rand.Rand, s *sample) (query, bool) {
	seq := sideLines(s)
	first, last := indexOf(seq, s.lines[0]), indexOf(seq, s.lines[len(s.lines)-1])
	up := rng.IntN(2) == 0
	for try := 0; try < 2; try, up = try+1, !up {
		lo, hi := first, last
		if up {
			lo--
			for lo >= 0 && blank(seq[lo].Text) {
				lo--
			}
		} else {
			hi++
			for hi < len(seq) && blank(seq[hi].Text) {
				hi++
			}
		}
		if lo < 0 || hi >= len(seq) {
			continue
		}
		q := plain(s, texts(seq[lo:hi+1]))
		q.start, q.end = lineNo(s.side, seq[lo]), lineNo(s.side, seq[hi])
		return q, true
	}
	return query{}, false
}

// partialFirst starts the quote in the middle of the first line.
func partialFirst(_ *rand.Rand, s *sample) (query, bool) {
	lines := texts(s.lines)
	t := strings.TrimSpace(lines[0])
	if len(t) < 16 {
		return query{}, false
	}
	cut := strings.IndexAny(t[len(t)/4:], " .(,") + len(t)/4
	if cut < len(t)/4 || len(strings.TrimSpace(t[cut:])) < 10 {
		return query{}, false // too little left to be a quote
	}
	lines[0] = strings.TrimSpace(t[cut:])
	// The class is about unique snippets: keep only quotes whose part-line
	// still pins one place down.
	pat := normLines(lines)
	ok := classify(s.d, s, func(seq []string, i int) bool {
		return i+len(pat) <= len(seq) && strings.Contains(seq[i], pat[0]) && equalAt(seq, i+1, pat[1:])
	}) == 1
	return plain(s, lines), ok
}

// ellipsis replaces the inner lines of a quote of three or more lines.
func ellipsis(rng *rand.Rand, s *sample) (query, bool) {
	norm := normLines(texts(s.lines))
	if len(norm) < 3 || slices.ContainsFunc(norm, looksElided) {
		return query{}, false // text that has ellipses of its own is another class
	}
	mark := [...]string{"...", "// ...", "…", "# ..."}[rng.IntN(4)]
	first, last := s.lines[0], s.lines[len(s.lines)-1]
	pat := normLines([]string{first.Text, last.Text})
	if skipped := normLines(texts(s.lines[1 : len(s.lines)-1])); count(skipped, pat[1:]) > 0 {
		return query{}, false // the gap would end early: not the class measured
	}
	unique := classify(s.d, s, func(seq []string, i int) bool {
		return seq[i] == pat[0] && count(seq[i+1:], pat[1:]) > 0
	}) == 1
	if !unique {
		return query{}, false
	}
	return plain(s, []string{first.Text, indentOf(s.lines[1].Text) + mark, last.Text}), true
}

// sideLines is the sample's hunk as seen on the sample's side.
func sideLines(s *sample) []udiff.Line {
	skip := udiff.Deleted
	if s.side == review.SideOld {
		skip = udiff.Added
	}
	var out []udiff.Line
	for _, l := range s.hunk.Lines {
		if l.Kind != skip {
			out = append(out, l)
		}
	}
	return out
}

func indexOf(seq []udiff.Line, l udiff.Line) int {
	for i, x := range seq {
		if x.OldLine == l.OldLine && x.NewLine == l.NewLine {
			return i
		}
	}
	return -1
}

func lineNo(side review.Side, l udiff.Line) int {
	if side == review.SideOld {
		return l.OldLine
	}
	return l.NewLine
}

// looksElided reports whether a normalised line is itself an ellipsis.
func looksElided(s string) bool {
	s = strings.Trim(s, "/#*<>!- ")
	return s == "..." || s == "…"
}
