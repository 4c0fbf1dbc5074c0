package main

import (
	"math/rand/v2"
	"strings"

	"github.com/ocr-ci/ocr/anchor/udiff"
	"github.com/ocr-ci/ocr/review"
)

// The classes below exercise the steps after the hunks: code outside every
// hunk (whole file), a comment filed on the wrong file of the diff (other
// file) and a misremembered quote (fuzzy).

// outsideSamples takes 1–4 unchanged lines outside every hunk, one place
// per file, whose text occurs once in the new and once in the old file.
func outsideSamples(rng *rand.Rand, cases []*diffCase) []sample {
	var out []sample
	for _, d := range cases {
		for fi := range d.files {
			f := &d.files[fi]
			lines := d.newFiles[f.NewPath]
			if f.Binary || f.OldPath == "" || len(lines) == 0 {
				continue
			}
			if s, ok := outsideSample(rng, d, f, lines); ok {
				out = append(out, s)
			}
		}
	}
	return out
}

func outsideSample(rng *rand.Rand, d *diffCase, f *udiff.File, lines []string) (sample, bool) {
	i := rng.IntN(len(lines))
	n := 1 + rng.IntN(4)
	var quoted []udiff.Line
	for j := i; j < min(i+n, len(lines)) && !inHunk(d, f.Path(), review.SideNew, j+1, j+1); j++ {
		quoted = append(quoted, udiff.Line{Kind: udiff.Context, Text: lines[j], NewLine: j + 1, OldLine: -1})
	}
	s, ok := newSample(d, f, nil, quoted)
	if !ok {
		return sample{}, false
	}
	pat := normLines(texts(s.lines))
	at := func(seq []string, i int) bool { return equalAt(seq, i, pat) }
	return s, countAt(d.normalised(false, f.NewPath), at) == 1 && countAt(d.normalised(true, f.OldPath), at) == 1
}

// wrongPath files a unique sample on another file of its diff, when the
// text is in no other file of the diff.
func wrongPath(rng *rand.Rand, s *sample) (query, bool) {
	var others []string
	pat := normLines(texts(s.lines))
	at := func(seq []string, i int) bool { return equalAt(seq, i, pat) }
	for _, g := range s.d.files {
		if g.Path() == s.file.Path() {
			continue
		}
		if countAt(s.d.normalised(false, g.NewPath), at)+countAt(s.d.normalised(true, g.OldPath), at) > 0 {
			return query{}, false
		}
		others = append(others, g.Path())
	}
	if len(others) == 0 {
		return query{}, false
	}
	q := plain(s, texts(s.lines))
	q.path = others[rng.IntN(len(others))]
	// A part of a line in the file it is filed on is found there first
	// (partial lines): that is another class.
	for _, g := range s.d.files {
		if g.Path() == q.path && (containsPart(s.d.normalised(false, g.NewPath), pat) || containsPart(s.d.normalised(true, g.OldPath), pat)) {
			return query{}, false
		}
	}
	return q, true
}

// containsPart reports whether a line of seq contains the first or last
// line of pat.
func containsPart(seq, pat []string) bool {
	for _, l := range seq {
		if strings.Contains(l, pat[0]) || strings.Contains(l, pat[len(pat)-1]) {
			return true
		}
	}
	return false
}

// misquote changes one word of one line, as a model quoting from memory
// does.
func misquote(rng *rand.Rand, s *sample) (query, bool) {
	lines := texts(s.lines)
	i := rng.IntN(len(lines))
	words := wordRE.FindAllStringIndex(lines[i], -1)
	if len(words) == 0 {
		return query{}, false
	}
	w := words[rng.IntN(len(words))]
	lines[i] = lines[i][:w[0]] + strings.ToUpper(lines[i][w[0]:w[0]+1]) + "x" + lines[i][w[0]+1:]
	return plain(s, lines), true
}
