package anchor

import (
	"sync"

	"github.com/ocr-ci/ocr/anchor/udiff"
	"github.com/ocr-ci/ocr/review"
)

// wholeCache keeps the normalised whole new file per path, so repeated
// whole-file attempts on one file normalise it once. An entry is reused only
// while NewFile returns the very same slice.
type wholeCache struct {
	mu sync.Mutex
	m  map[string]*wholeEntry
}

type wholeEntry struct {
	first *string
	n     int
	seq   sequence
}

// wholeFile returns the searchable new-file sequence of path, marking lines
// that lie inside a hunk of the change set.
func (cs *ChangeSet) wholeFile(path string, lines []string) *sequence {
	if len(lines) == 0 {
		return &sequence{}
	}
	cs.whole.mu.Lock()
	e, ok := cs.whole.m[path]
	cs.whole.mu.Unlock()
	if ok && e.first == &lines[0] && e.n == len(lines) {
		return &e.seq
	}
	e = &wholeEntry{first: &lines[0], n: len(lines), seq: cs.buildWhole(path, lines)}
	cs.whole.mu.Lock()
	if cs.whole.m == nil {
		cs.whole.m = make(map[string]*wholeEntry)
	}
	cs.whole.m[path] = e
	cs.whole.mu.Unlock()
	return &e.seq
}

func (cs *ChangeSet) buildWhole(path string, lines []string) sequence {
	si, _ := cs.side(path, review.SideNew)
	seq := make([]seqLine, 0, len(lines))
	for i, text := range lines {
		t := normalize(text)
		if t == "" {
			continue
		}
		l := seqLine{norm: t, line: i + 1, kind: udiff.Context, hunk: -1}
		if si != nil {
			if h := si.hunkOf(l.line); h >= 0 {
				l.hunk, l.kind = h, si.spans[h].kinds[l.line-si.spans[h].start]
			}
		}
		seq = append(seq, l)
	}
	return newSequence(seq)
}
