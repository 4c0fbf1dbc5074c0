package anchor

import (
	"sort"
	"sync"

	"github.com/ocr-ci/ocr/anchor/udiff"
	"github.com/ocr-ci/ocr/review"
)

// ChangeSet is a parsed diff indexed for anchoring: files by new and old
// path, and, built lazily once per file, the normalised lines of every hunk
// on each side. It is safe for concurrent use; the agent's comment workers
// share one.
type ChangeSet struct {
	files []udiff.File
	byNew map[string]int
	byOld map[string]int
	idx   []fileIndex
	whole wholeCache
	// lineOnce builds byLine: which files have a normalised text in their
	// hunks (either side), to find other files quickly.
	lineOnce sync.Once
	byLine   map[string][]int
}

// fileIndex is the lazily built search index of one file.
type fileIndex struct {
	once  sync.Once
	sides [2]sideIndex // sideSlot(review.SideNew), sideSlot(review.SideOld)
}

// sideIndex is one side of a file's hunks.
type sideIndex struct {
	seq   sequence
	spans []span // line range of each hunk on this side, in hunk order
}

// span is a hunk's line range on one side with each line's kind.
type span struct {
	start, end int // inclusive; end < start for a hunk empty on this side
	kinds      []udiff.LineKind
}

// NewChangeSet indexes files by path. Indexing of hunk contents is deferred
// to the first query that needs a file.
func NewChangeSet(files []udiff.File) *ChangeSet {
	cs := &ChangeSet{
		files: files,
		byNew: make(map[string]int, len(files)),
		byOld: make(map[string]int, len(files)),
		idx:   make([]fileIndex, len(files)),
	}
	for i := range files {
		if p := files[i].NewPath; p != "" {
			if _, dup := cs.byNew[p]; !dup {
				cs.byNew[p] = i
			}
		}
		if p := files[i].OldPath; p != "" {
			if _, dup := cs.byOld[p]; !dup {
				cs.byOld[p] = i
			}
		}
	}
	return cs
}

// Files returns the files of the change set in diff order.
func (cs *ChangeSet) Files() []udiff.File { return cs.files }

// File finds a file by its new path, or else by its old path.
func (cs *ChangeSet) File(path string) (*udiff.File, bool) {
	i, ok := cs.lookup(path)
	if !ok {
		return nil, false
	}
	return &cs.files[i], true
}

func (cs *ChangeSet) lookup(path string) (int, bool) {
	if cs == nil {
		return 0, false
	}
	if i, ok := cs.byNew[path]; ok {
		return i, true
	}
	i, ok := cs.byOld[path]
	return i, ok
}

// InHunk reports whether every line of start..end lies inside one hunk of
// path's diff on side (GitHub accepts inline comments only there).
func (cs *ChangeSet) InHunk(path string, side review.Side, start, end int) bool {
	si, ok := cs.side(path, side)
	if !ok || start < 1 || end < start {
		return false
	}
	h := si.hunkOf(start)
	return h >= 0 && end <= si.spans[h].end
}

// LineKind says whether line (numbered on side) is an added, deleted or
// context line of path's diff; false when it lies outside every hunk.
func (cs *ChangeSet) LineKind(path string, side review.Side, line int) (udiff.LineKind, bool) {
	si, ok := cs.side(path, side)
	if !ok {
		return 0, false
	}
	h := si.hunkOf(line)
	if h < 0 {
		return 0, false
	}
	return si.spans[h].kinds[line-si.spans[h].start], true
}

func (cs *ChangeSet) side(path string, side review.Side) (*sideIndex, bool) {
	slot := sideSlot(side)
	i, ok := cs.lookup(path)
	if !ok || slot < 0 {
		return nil, false
	}
	return &cs.index(i).sides[slot], true
}

// index returns file i's search index, building it on first use.
func (cs *ChangeSet) index(i int) *fileIndex {
	fi := &cs.idx[i]
	fi.once.Do(func() { fi.build(&cs.files[i]) })
	return fi
}

func sideSlot(s review.Side) int {
	switch s {
	case review.SideNew:
		return 0
	case review.SideOld:
		return 1
	}
	return -1
}

// build normalises every hunk line once, per side.
func (fi *fileIndex) build(f *udiff.File) {
	for slot := range fi.sides {
		si := &fi.sides[slot]
		si.spans = make([]span, len(f.Hunks))
		var lines []seqLine
		for h := range f.Hunks {
			lines, si.spans[h] = appendHunkSide(lines, &f.Hunks[h], h, slot == 0)
		}
		si.seq = newSequence(lines)
	}
}

// appendHunkSide appends hunk h's lines on one side to lines and returns
// the hunk's span on that side.
func appendHunkSide(lines []seqLine, hk *udiff.Hunk, h int, newSide bool) ([]seqLine, span) {
	sp := span{start: hk.NewStart, end: hk.NewStart - 1}
	changed := udiff.Added
	if !newSide {
		sp = span{start: hk.OldStart, end: hk.OldStart - 1}
		changed = udiff.Deleted
	}
	first := true
	for _, l := range hk.Lines {
		if l.Kind != udiff.Context && l.Kind != changed {
			continue
		}
		n := l.NewLine
		if !newSide {
			n = l.OldLine
		}
		if n < 1 || (!first && n != sp.end+1) {
			continue // malformed numbering: keep spans contiguous
		}
		if first {
			sp.start, first = n, false
		}
		sp.end = n
		sp.kinds = append(sp.kinds, l.Kind)
		if t := normalize(l.Text); t != "" {
			lines = append(lines, seqLine{norm: t, line: n, kind: l.Kind, hunk: h})
		}
	}
	return lines, sp
}

// hunkOf returns the index of the hunk containing line, or -1.
func (si *sideIndex) hunkOf(line int) int {
	i := sort.Search(len(si.spans), func(i int) bool { return si.spans[i].end >= line })
	if i < len(si.spans) && si.spans[i].start <= line && line <= si.spans[i].end {
		return i
	}
	return -1
}

// filesWith lists, in order, the files whose hunks hold a line whose
// normalised text is text.
func (cs *ChangeSet) filesWith(text string) []int {
	cs.lineOnce.Do(func() {
		cs.byLine = make(map[string][]int)
		for i := range cs.files {
			for _, side := range cs.index(i).sides {
				for _, l := range side.seq.lines {
					if f := cs.byLine[l.norm]; len(f) == 0 || f[len(f)-1] != i {
						cs.byLine[l.norm] = append(f, i)
					}
				}
			}
		}
	})
	return cs.byLine[text]
}

// candidateFiles lists, in order, the files whose hunks can hold the
// snippet at level: those with its first line that must match exactly
// (on either side), or every file when it has none.
func (cs *ChangeSet) candidateFiles(sn *snippet, level int) []int {
	seen := make(map[int]bool)
	for slot := range 2 {
		items := sn.pattern(level, slot)
		k := 0
		for k < len(items) && (items[k].gap || items[k].optional(level)) {
			k++
		}
		if k == len(items) {
			all := make([]int, len(cs.files))
			for i := range all {
				all[i] = i
			}
			return all
		}
		for _, i := range cs.filesWith(items[k].lit) {
			seen[i] = true
		}
		if level > levelLiteral && items[k].alt != items[k].lit {
			for _, i := range cs.filesWith(items[k].alt) {
				seen[i] = true
			}
		}
	}
	out := make([]int, 0, len(seen))
	for i := range seen {
		out = append(out, i)
	}
	sort.Ints(out)
	return out
}
