package anchor

import "strings"

// match is one place where a pattern matched.
type match struct {
	start, end int // line numbers on the sequence's side
	hunk       int // hunk holding the whole range, -1 when none does
	changed    int // matched lines that are added (new side) or deleted (old side)
}

// maxGap bounds the lines an ellipsis may stand for, which bounds the
// cost of matching snippets with ellipses against a whole file.
const maxGap = 500

// matcher finds every occurrence of a pattern in a sequence.
type matcher struct {
	seq      *sequence
	items    []item
	level    int
	oneHunk  bool // hunk sequences: a match never spans two hunks
	matches  []match
	lastItem int
	// partialFirst and partialLast allow the first/last item to be only
	// part of its line.
	partialFirst, partialLast bool
}

// findAll returns every match of items in seq.
func findAll(seq *sequence, items []item, level int, oneHunk bool) []match {
	if len(items) == 0 || len(seq.lines) == 0 {
		return nil
	}
	m := matcher{seq: seq, items: items, level: level, oneHunk: oneHunk, lastItem: len(items) - 1}
	if level < levelPartial {
		m.fromIndex(0)
		return m.matches
	}
	m.partialFirst, m.partialLast = true, true
	switch k := m.pivot(); {
	case k > 0:
		m.fromIndex(k)
	case len(items) == 2 && !items[1].gap:
		// Only one end of two lines may be partial: pin the other.
		m.partialFirst = false
		m.fromIndex(0)
		m.partialFirst, m.partialLast = true, false
		m.fromIndex(1)
	default:
		for p := range seq.lines {
			m.try(p)
		}
	}
	return m.matches
}

// pivot picks an inner item of the first run of items (before any gap): it
// must match exactly, so the index of lines gives the candidate starts.
// It returns 0 when there is none.
func (m *matcher) pivot() int {
	if m.lastItem > 1 && !m.items[1].gap {
		return 1
	}
	return 0
}

// fromIndex tries the starts where item k matches exactly (or with its
// marker stripped).
func (m *matcher) fromIndex(k int) {
	it := m.items[k]
	for _, p := range m.seq.first[it.lit] {
		m.try(p - k)
	}
	if it.alt != it.lit && m.level > levelLiteral {
		for _, p := range m.seq.first[it.alt] {
			m.try(p - k)
		}
	}
}

// try records the match starting at position p, if any.
func (m *matcher) try(p int) {
	if p < 0 || p >= len(m.seq.lines) {
		return
	}
	end, changed, ok := m.matchFrom(p, 0)
	if !ok {
		return
	}
	first, last := &m.seq.lines[p], &m.seq.lines[end]
	h := first.hunk
	if last.hunk != h {
		h = -1
	}
	found := match{start: first.line, end: last.line, hunk: h, changed: changed}
	for i, prev := range m.matches {
		if prev.end == found.end {
			// Same place found twice (through the marker-stripped text), or
			// a gap that could start earlier: keep the tightest.
			if found.start > prev.start {
				m.matches[i] = found
			}
			return
		}
	}
	m.matches = append(m.matches, found)
}

// matchFrom matches items[k:] starting at position p and returns the
// position of the last matched line and how many matched lines changed. A
// gap takes the fewest lines that let the next run of items match; there
// is no backtracking, so the cost stays linear in the sequence.
func (m *matcher) matchFrom(p, k int) (end, changed int, ok bool) {
	h := m.seq.lines[p].hunk
	for k < len(m.items) {
		if !m.items[k].gap || m.level == levelLiteral {
			next, c, ok := m.run(p, k, h)
			if !ok {
				return 0, 0, false
			}
			end, changed, p, k = p+(next-k)-1, changed+c, p+(next-k), next
			continue
		}
		found := false
		for q := p; q < min(len(m.seq.lines), p+maxGap) && (!m.oneHunk || m.seq.lines[q].hunk == h); q++ {
			if next, c, ok := m.run(q, k+1, h); ok {
				end, changed, p, k, found = q+(next-k-1)-1, changed+c, q+(next-k-1), next, true
				break
			}
		}
		if !found {
			return 0, 0, false
		}
	}
	return end, changed, true
}

// run matches the items from k up to the next gap (or the end) at
// consecutive positions from p; next is the index of the first item not
// matched (the gap or len(items)).
func (m *matcher) run(p, k, h int) (next, changed int, ok bool) {
	lines := m.seq.lines
	for ; k < len(m.items) && !(m.items[k].gap && m.level > levelLiteral); k++ {
		if p >= len(lines) || (m.oneHunk && lines[p].hunk != h) || !m.eq(&m.items[k], &lines[p], k) {
			return 0, 0, false
		}
		if lines[p].kind != Context {
			changed++
		}
		p++
	}
	return k, changed, true
}

// eq reports whether item k matches line l at the matcher's level.
func (m *matcher) eq(it *item, l *seqLine, k int) bool {
	if l.norm == it.lit {
		return true
	}
	if m.level == levelLiteral {
		return false
	}
	stripped := it.mark != 0 && (m.level == levelLoose || l.kind == it.mark)
	if stripped && l.norm == it.alt {
		return true
	}
	if !(k == 0 && m.partialFirst) && !(k == m.lastItem && m.partialLast) {
		return false
	}
	min := minPartial
	if m.lastItem == 0 {
		min = minPartialAlone
	}
	return partial(l.norm, it.lit, min) || (stripped && partial(l.norm, it.alt, min))
}

// partial reports whether quoted is a long enough part of line.
func partial(line, quoted string, min int) bool {
	return len(quoted) >= min && len(quoted) < len(line) && strings.Contains(line, quoted)
}
