package anchor

import "strings"

import "github.com/ocr-ci/ocr/anchor/udiff"

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
		m.search(0, -1)
		return m.matches
	}
	// One end at a time may be only part of its line; the rest matches
	// exactly (a single line is both ends).
	m.partialFirst, m.partialLast = true, m.lastItem == 0
	m.search(1, -1)
	if m.lastItem > 0 {
		m.partialFirst, m.partialLast = false, true
		m.search(0, m.lastItem)
	}
	return m.matches
}

// search tries the starts given by the index of the rarest item among
// items[from:] before the first gap or optional item (except item skip,
// which may match in part), or every start when no item qualifies.
func (m *matcher) search(from, skip int) {
	best, bestN := -1, 0
	for k := from; k < len(m.items) && !m.items[k].gap && !m.optional(k); k++ {
		if k == skip {
			continue
		}
		n := m.candidates(k)
		if n == 0 {
			return // this item must match exactly somewhere, and cannot
		}
		if best < 0 || n < bestN {
			best, bestN = k, n
		}
	}
	if best < 0 {
		m.scan()
		return
	}
	it := m.items[best]
	for _, p := range m.seq.first[it.lit] {
		m.try(p - best)
	}
	if it.alt != it.lit && m.level > levelLiteral {
		for _, p := range m.seq.first[it.alt] {
			m.try(p - best)
		}
	}
}

// scan tries every start; when the first item may be part of a line, only
// the lines containing it (found by substring search).
func (m *matcher) scan() {
	first := &m.items[0]
	if !m.partialFirst || first.gap || m.optional(0) {
		for p := range m.seq.lines {
			m.try(p)
		}
		return
	}
	for _, p := range m.seq.containing(first.lit) {
		m.try(p)
	}
	if first.alt != first.lit {
		for _, p := range m.seq.containing(first.alt) {
			m.try(p)
		}
	}
}

// candidates is how many lines item k could match exactly.
func (m *matcher) candidates(k int) int {
	it := &m.items[k]
	n := len(m.seq.first[it.lit])
	if it.alt != it.lit && m.level > levelLiteral {
		n += len(m.seq.first[it.alt])
	}
	return n
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
	found := m.seq.window(p, end)
	found.changed = changed
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

// cursor is the state of one match attempt.
type cursor struct {
	p, k    int // next line position and next item
	end     int // position of the last line matched, -1 before any
	changed int // matched lines that are not context
}

// matchFrom matches items[k:] starting at position p and returns the
// position of the last matched line and how many matched lines changed. A
// gap takes the fewest lines that let the next run of items match; there
// is no backtracking, so the cost stays linear in the sequence.
func (m *matcher) matchFrom(p, k int) (end, changed int, ok bool) {
	c := cursor{p: p, k: k, end: -1}
	h := m.seq.lines[p].hunk
	for c.k < len(m.items) {
		if m.isGap(c.k) {
			ok = m.skipGap(&c, h)
		} else {
			ok = m.run(&c, h)
		}
		if !ok {
			return 0, 0, false
		}
	}
	return c.end, c.changed, c.end >= 0
}

func (m *matcher) isGap(k int) bool { return m.items[k].gap && m.level > levelLiteral }

// optional reports whether item k may match no line.
func (m *matcher) optional(k int) bool { return m.items[k].optional(m.level) }

// optional reports whether the item may match no line at level: a diff
// marker alone quotes a blank line, and blank lines are not in sequences.
func (it *item) optional(level int) bool {
	return level > levelLiteral && it.mark != 0 && it.alt == ""
}

// run advances c over the items up to the next gap, each matching the next
// line.
func (m *matcher) run(c *cursor, h int) bool {
	lines := m.seq.lines
	for ; c.k < len(m.items) && !m.isGap(c.k); c.k++ {
		if c.p >= len(lines) || (m.oneHunk && lines[c.p].hunk != h) || !m.eq(&m.items[c.k], &lines[c.p], c.k) {
			if m.optional(c.k) {
				continue
			}
			return false
		}
		if lines[c.p].kind != udiff.Context {
			c.changed++
		}
		c.end = c.p
		c.p++
	}
	return true
}

// skipGap moves c past the gap at c.k to the first position from which the
// items up to the next gap match.
func (m *matcher) skipGap(c *cursor, h int) bool {
	lines := m.seq.lines
	for q := c.p; q < min(len(lines), c.p+maxGap) && (!m.oneHunk || lines[q].hunk == h); q++ {
		next := cursor{p: q, k: c.k + 1, end: c.end, changed: c.changed}
		if m.run(&next, h) {
			*c = next
			return true
		}
	}
	return false
}

// eq reports whether item k matches line l at the matcher's level.
func (m *matcher) eq(it *item, l *seqLine, k int) bool {
	if l.norm == it.lit {
		return true
	}
	if m.level == levelLiteral {
		return false
	}
	stripped := it.mark != 0 && (m.level == levelLoose || (l.kind == it.mark && (!it.weak || m.level >= levelWeak)))
	if stripped && l.norm == it.alt {
		return true
	}
	if (k != 0 || !m.partialFirst) && (k != m.lastItem || !m.partialLast) {
		return false
	}
	least := minPartial
	if m.lastItem == 0 {
		least = minPartialAlone
	}
	return partial(l.norm, it.lit, least) || (stripped && partial(l.norm, it.alt, least))
}

// partial reports whether quoted is a long enough part of line (at least
// least bytes).
func partial(line, quoted string, least int) bool {
	return len(quoted) >= least && len(quoted) < len(line) && strings.Contains(line, quoted)
}
