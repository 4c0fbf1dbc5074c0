package anchor

import (
	"sort"
	"strings"
	"sync"

	"github.com/ocr-ci/ocr/anchor/udiff"
)

// seqLine is one non-blank line of a searchable sequence.
type seqLine struct {
	norm string
	line int            // 1-based number on the sequence's side
	kind udiff.LineKind // Context for lines outside every hunk
	hunk int            // hunk index on the sequence's side; -1 outside hunks
}

// sequence is a searchable run of non-blank lines indexed by their
// normalised text.
type sequence struct {
	lines []seqLine
	first map[string][]int // normalised text → positions in lines
	slow  *slowIndex
}

// slowIndex holds what only the rare slow paths need (substring search of
// partial lines, fuzzy tokens), built on first use.
type slowIndex struct {
	textOnce sync.Once
	text     string // every line followed by "\n"
	offsets  []int  // offset of each line in text
	tokOnce  sync.Once
	vocab    map[string]int32 // token → id
	ids      [][]int32        // token ids of each line
}

func newSequence(lines []seqLine) sequence {
	s := sequence{lines: lines, first: make(map[string][]int, len(lines)), slow: &slowIndex{}}
	for i := range lines {
		s.first[lines[i].norm] = append(s.first[lines[i].norm], i)
	}
	return s
}

// window is the match covering positions p..e, its changed lines not
// counted; hunk is -1 unless one hunk holds both ends.
func (s *sequence) window(p, e int) match {
	first, last := &s.lines[p], &s.lines[e]
	m := match{start: first.line, end: last.line, hunk: first.hunk}
	if last.hunk != m.hunk {
		m.hunk = -1
	}
	return m
}

// containing returns the positions of the lines that contain part, in
// order, with one fast substring search over the whole sequence.
func (s *sequence) containing(part string) []int {
	x := s.slow
	x.textOnce.Do(func() {
		var b strings.Builder
		x.offsets = make([]int, len(s.lines))
		for i := range s.lines {
			x.offsets[i] = b.Len()
			b.WriteString(s.lines[i].norm)
			b.WriteByte('\n')
		}
		x.text = b.String()
	})
	var out []int
	for from := 0; part != "" && from < len(x.text); {
		j := strings.Index(x.text[from:], part)
		if j < 0 {
			break
		}
		p := sort.SearchInts(x.offsets, from+j+1) - 1
		out = append(out, p)
		from = x.offsets[p] + len(s.lines[p].norm) + 1 // next line
	}
	return out
}

// tokenIDs returns the fuzzy tokens of every line as ids, and the ids,
// computed once.
func (s *sequence) tokenIDs() (map[string]int32, [][]int32) {
	x := s.slow
	x.tokOnce.Do(func() {
		x.vocab = make(map[string]int32)
		x.ids = make([][]int32, len(s.lines))
		for i := range s.lines {
			for _, t := range tokens(s.lines[i].norm) {
				id, ok := x.vocab[t]
				if !ok {
					id = int32(len(x.vocab))
					x.vocab[t] = id
				}
				x.ids[i] = append(x.ids[i], id)
			}
		}
	})
	return x.vocab, x.ids
}
