package posting

import "strings"

// section is a part of a body that is shown whole or in part: a head, the
// items that fit, a foot. Each item is balanced Markdown (no fence, no
// <details> left open), so leaving items out never breaks what follows.
type section struct {
	head  string
	items []string
	foot  string
}

// fitSections renders the sections in order within budget bytes: each
// section's items up to the first that does not fit (they come most
// important first), a section without items that fit not at all. left
// counts the items not shown.
func fitSections(secs []section, budget int) (shown string, left int) {
	var b strings.Builder
	for _, s := range secs {
		room := budget - b.Len() - len(s.head) - len(s.foot)
		n := 0
		for _, it := range s.items {
			if len(it) > room {
				break
			}
			room -= len(it)
			n++
		}
		left += len(s.items) - n
		if n == 0 {
			continue
		}
		b.WriteString(s.head)
		for _, it := range s.items[:n] {
			b.WriteString(it)
		}
		b.WriteString(s.foot)
	}
	return b.String(), left
}

// sectionsLen is the size of every section in full.
func sectionsLen(secs []section) int {
	n := 0
	for _, s := range secs {
		if len(s.items) > 0 {
			n += len(s.head) + len(s.foot)
		}
		for _, it := range s.items {
			n += len(it)
		}
	}
	return n
}
