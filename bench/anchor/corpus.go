package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/ocr-ci/ocr/anchor"
	"github.com/ocr-ci/ocr/anchor/udiff"
	"github.com/ocr-ci/ocr/review"
)

const emptyTree = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"

// diffCase is one commit's diff with both versions of its files.
type diffCase struct {
	name     string
	files    []udiff.File
	cs       *anchor.ChangeSet
	newFiles map[string][]string // by new path
	oldFiles map[string][]string // by old path
	opts     anchor.Options
	norm     map[string][]string // normLines of a file, by "new:" or "old:" path
}

// normalised returns normLines of the new or old version of path, cached.
func (d *diffCase) normalised(old bool, path string) []string {
	key, src := "new:"+path, d.newFiles
	if old {
		key, src = "old:"+path, d.oldFiles
	}
	if n, ok := d.norm[key]; ok {
		return n
	}
	if d.norm == nil {
		d.norm = map[string][]string{}
	}
	d.norm[key] = normLines(src[path])
	return d.norm[key]
}

// sample is a run of 1–4 quoted lines of one kind with its true place.
type sample struct {
	d         *diffCase
	file      *udiff.File
	hunk      *udiff.Hunk
	lines     []udiff.Line // quoted lines, blank ones at the ends removed
	kind      udiff.LineKind
	side      review.Side
	start     int
	end       int
	ambiguous bool
}

// loadRepo parses the diffs of the n oldest commits of the repository in
// dir (by commit date): the corpus stays the same as commits are added, so
// a branch's commits cannot move the figures, nor a target met on main
// fail on a branch that does not touch what is measured.
func loadRepo(ctx context.Context, dir string, n int) ([]*diffCase, error) {
	out, err := git(ctx, dir, "log", "--date-order", "--reverse", "--format=%H %P")
	if err != nil {
		return nil, err
	}
	out = oldest(out, n)
	br, err := newBlobReader(ctx, dir)
	if err != nil {
		return nil, err
	}
	defer br.close()
	var cases []*diffCase
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		parent := emptyTree
		if len(f) > 1 {
			parent = f[1]
		}
		d, err := loadDiff(ctx, dir, br, parent, f[0])
		if err != nil {
			return nil, err
		}
		cases = append(cases, d)
	}
	return cases, nil
}

func loadDiff(ctx context.Context, dir string, br *blobReader, from, to string) (*diffCase, error) {
	raw, err := git(ctx, dir, "diff", "-U3", "--find-renames", "--no-color", "--no-ext-diff", from, to)
	if err != nil {
		return nil, err
	}
	files, err := udiff.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("parse diff %s..%s of %s: %w", from, to, dir, err)
	}
	d := &diffCase{name: dir + "@" + to[:10], files: files, cs: anchor.NewChangeSet(files),
		newFiles: map[string][]string{}, oldFiles: map[string][]string{}}
	for _, f := range files {
		if f.Binary || len(f.Hunks) == 0 {
			continue
		}
		if err := d.read(br, from, to, &f); err != nil {
			return nil, err
		}
	}
	d.opts = anchor.Options{NewFile: func(p string) ([]string, bool) {
		l, ok := d.newFiles[p]
		return l, ok
	}}
	return d, nil
}

func (d *diffCase) read(br *blobReader, from, to string, f *udiff.File) error {
	if f.NewPath != "" {
		b, ok, err := br.read(to, f.NewPath)
		if err != nil {
			return err
		}
		if ok {
			d.newFiles[f.NewPath] = splitLines(string(b))
		}
	}
	if f.OldPath != "" && from != emptyTree {
		b, ok, err := br.read(from, f.OldPath)
		if err != nil {
			return err
		}
		if ok {
			d.oldFiles[f.OldPath] = splitLines(string(b))
		}
	}
	return nil
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// collect samples runs of every hunk of every diff: unique ones (the text
// occurs once across both versions of the file) and ambiguous ones (it
// occurs more than once on its own side).
func collect(rng *rand.Rand, cases []*diffCase) (unique, ambiguous []sample) {
	for _, d := range cases {
		for fi := range d.files {
			f := &d.files[fi]
			if f.Binary {
				continue
			}
			for hi := range f.Hunks {
				for _, s := range runs(rng, d, f, &f.Hunks[hi]) {
					switch occurrences(d, &s) {
					case 1:
						unique = append(unique, s)
					case 2:
						s.ambiguous = true
						ambiguous = append(ambiguous, s)
					}
				}
			}
		}
	}
	return unique, ambiguous
}

// runs takes 1–4 consecutive lines from each run of one kind in h.
func runs(rng *rand.Rand, d *diffCase, f *udiff.File, h *udiff.Hunk) []sample {
	var out []sample
	for i := 0; i < len(h.Lines); {
		j := i
		for j < len(h.Lines) && h.Lines[j].Kind == h.Lines[i].Kind {
			j++
		}
		n := 1 + rng.IntN(min(4, j-i))
		at := i + rng.IntN(j-i-n+1)
		if s, ok := newSample(d, f, h, h.Lines[at:at+n]); ok {
			out = append(out, s)
		}
		i = j
	}
	return out
}

func newSample(d *diffCase, f *udiff.File, h *udiff.Hunk, lines []udiff.Line) (sample, bool) {
	for len(lines) > 0 && blank(lines[0].Text) {
		lines = lines[1:]
	}
	for len(lines) > 0 && blank(lines[len(lines)-1].Text) {
		lines = lines[:len(lines)-1]
	}
	if len(lines) == 0 {
		return sample{}, false
	}
	s := sample{d: d, file: f, hunk: h, lines: lines, kind: lines[0].Kind, side: review.SideNew}
	s.start, s.end = lines[0].NewLine, lines[len(lines)-1].NewLine
	if s.kind == udiff.Deleted {
		s.side = review.SideOld
		s.start, s.end = lines[0].OldLine, lines[len(lines)-1].OldLine
	}
	return s, true
}

// occurrences classifies a sample: 1 unique, 2 ambiguous on its own side,
// 0 unusable (its text is on the other side too, or nowhere).
func occurrences(d *diffCase, s *sample) int {
	pat := normLines(texts(s.lines))
	return classify(d, s, func(seq []string, i int) bool { return equalAt(seq, i, pat) })
}

// classify counts the positions of both versions of the sample's file
// where at matches and applies the rule of occurrences.
func classify(d *diffCase, s *sample, at func(seq []string, i int) bool) int {
	inNew := countAt(d.normalised(false, s.file.NewPath), at)
	inOld := countAt(d.normalised(true, s.file.OldPath), at)
	mine, other := inNew, inOld
	if s.side == review.SideOld {
		mine, other = inOld, inNew
	}
	switch {
	case s.kind == udiff.Context && inNew == 1 && inOld <= 1:
		return 1
	case s.kind != udiff.Context && mine == 1 && other == 0:
		return 1
	case mine >= 2 && (s.kind == udiff.Context || other == 0):
		return 2
	}
	return 0
}

func texts(lines []udiff.Line) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = l.Text
	}
	return out
}

// normLines collapses whitespace and drops blank lines.
func normLines(lines []string) []string {
	var out []string
	for _, l := range lines {
		if n := strings.Join(strings.Fields(l), " "); n != "" {
			out = append(out, n)
		}
	}
	return out
}

// countAt is how many positions of seq at accepts.
func countAt(seq []string, at func(seq []string, i int) bool) int {
	n := 0
	for i := range seq {
		if at(seq, i) {
			n++
		}
	}
	return n
}

func blank(s string) bool { return strings.TrimSpace(s) == "" }

// count is how often pat occurs as consecutive lines of seq.
func count(seq, pat []string) int {
	return countAt(seq, func(seq []string, i int) bool { return equalAt(seq, i, pat) })
}

// oldest is the first n lines of git log's output.
func oldest(out []byte, n int) []byte {
	lines := strings.SplitAfter(string(out), "\n")
	return []byte(strings.Join(lines[:min(n, len(lines))], ""))
}
