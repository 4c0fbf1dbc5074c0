package anchor

import "strings"

import "github.com/ocr-ci/ocr/anchor/udiff"

// Match levels, tried in order: a literal match always wins over one that
// needs a tolerance.
const (
	// levelLiteral compares normalised lines only (whitespace, CRLF, blank
	// lines and file_read prefixes never matter).
	levelLiteral = iota
	// levelTolerant also strips a diff marker when the marked line is of
	// that kind (+ added, - deleted) and reads ellipsis lines as skipped
	// lines.
	levelTolerant
	// levelPairs is levelTolerant reading a quote that mixes "-" and "+"
	// lines (a replaced line with its replacement) as its lines of the side
	// searched.
	levelPairs
	// levelWeak is levelTolerant also stripping weak markers ("- item"
	// may be a list item), still only on lines of the marked kind. It
	// comes after the whole file was searched at the levels before.
	levelWeak
	// levelPartial is levelWeak accepting a first or last line (one of
	// them) that is only part of the source line.
	levelPartial
	// levelLoose is levelPartial stripping diff markers whatever the
	// line's kind.
	levelLoose
	levelCount
)

// minPartial is the shortest partial first/last line accepted; a single
// line quoted in part must be longer (minPartialAlone) since nothing else
// pins it down.
const (
	minPartial      = 4
	minPartialAlone = 8
)

// item is one non-blank line of a quoted snippet.
type item struct {
	lit  string         // normalised text as quoted
	alt  string         // text with one column-0 diff marker stripped; lit when none
	mark udiff.LineKind // the stripped marker (Added or Deleted), 0 when none
	weak bool           // the marker may be text: "- item"
	gap  bool           // an ellipsis line ("...") standing for skipped lines
}

// snippet is a quoted existing_code prepared for matching.
type snippet struct {
	items          []item
	hint           int // first file_read line number, 0 when none
	plus, minus    bool
	marks, ellipse bool
	weak           bool // some marker is weak
	// patterns caches pattern results by level and side.
	patterns [levelCount][2]*[]item
	// quoted is the snippet with its file_read prefixes kept, when they
	// were removed from this one.
	quoted *snippet
}

// empty reports whether the quote has no line to look for.
func (sn *snippet) empty() bool {
	return len(sn.items) == 0 && (sn.quoted == nil || len(sn.quoted.items) == 0)
}

// stage is one snippet at one match level.
type stage struct {
	sn    *snippet
	level int
}

// stages lists the attempts at levels from..to-1 in order; the literal
// level starts with the quote as given, before file_read prefixes are
// removed.
func (sn *snippet) stages(from, to int) []stage {
	var out []stage
	if from == levelLiteral && sn.quoted != nil && len(sn.quoted.items) > 0 {
		out = append(out, stage{sn.quoted, levelLiteral})
	}
	for level := from; level < to; level++ {
		if sn.useful(level) {
			out = append(out, stage{sn, level})
		}
	}
	return out
}

// parseSnippet splits code into normalised non-blank lines, removing
// file_read prefixes when every line has one.
func parseSnippet(code string) snippet {
	raw := strings.Split(code, "\n")
	if rest, first, ok := readPrefixed(raw); ok {
		// The prefixes may be the file's own text (a golden file of
		// file_read output): that literal reading is tried first.
		quoted := snippetOf(raw)
		sn := snippetOf(rest)
		sn.hint, sn.quoted = first, &quoted
		return sn
	}
	return snippetOf(raw)
}

// snippetOf builds the items of raw lines. A diff marker is a "+" or "-"
// in column 0; one followed by a single space and text ("- item") may as
// well be a YAML or Markdown list item, so it counts only as a weak marker.
func snippetOf(raw []string) snippet {
	var sn snippet
	for _, r := range raw {
		lit := normalize(r)
		if lit == "" {
			continue
		}
		it := item{lit: lit, alt: lit, gap: isEllipsis(lit)}
		if r[0] == '+' || r[0] == '-' {
			it.alt, it.mark = stripMarker(lit)
			it.weak = len(r) > 2 && r[1] == ' ' && r[2] != ' ' && r[2] != '\t'
			sn.weak = sn.weak || it.weak
			sn.plus = sn.plus || it.mark == udiff.Added
			sn.minus = sn.minus || it.mark == udiff.Deleted
		}
		sn.marks = sn.marks || it.mark != 0
		sn.ellipse = sn.ellipse || it.gap
		sn.items = append(sn.items, it)
	}
	return sn
}

// readPrefixed strips "123|" prefixes when every non-blank line has one.
func readPrefixed(raw []string) ([]string, int, bool) {
	out := make([]string, 0, len(raw))
	first := 0
	for _, r := range raw {
		if strings.TrimSpace(r) == "" {
			out = append(out, "")
			continue
		}
		rest, n, ok := stripReadPrefix(r)
		if !ok {
			return raw, 0, false
		}
		if first == 0 {
			first = n
		}
		out = append(out, rest)
	}
	return out, first, first > 0
}

// pattern is the list of items to look for at one level on one side,
// computed once per snippet.
func (sn *snippet) pattern(level, slot int) []item {
	if p := sn.patterns[level][slot]; p != nil {
		return *p
	}
	items := sn.buildPattern(level, slot)
	sn.patterns[level][slot] = &items
	return items
}

func (sn *snippet) buildPattern(level, slot int) []item {
	if level == levelLiteral {
		items := make([]item, len(sn.items))
		for i, it := range sn.items {
			items[i] = item{lit: it.lit, alt: it.lit}
		}
		return items
	}
	var items []item
	for _, it := range sn.items {
		if level == levelPairs && it.mark == otherKind(slot) && !it.weak {
			continue // "-old / +new" pairs: keep the lines of this side
		}
		if it.gap && (len(items) == 0 || items[len(items)-1].gap) {
			continue
		}
		items = append(items, it)
	}
	for len(items) > 0 && items[len(items)-1].gap {
		items = items[:len(items)-1]
	}
	return items
}

// otherKind is the changed-line kind that does not exist on side slot.
func otherKind(slot int) udiff.LineKind {
	if slot == 0 {
		return udiff.Deleted
	}
	return udiff.Added
}

// useful reports whether trying level adds anything to the levels before.
func (sn *snippet) useful(level int) bool {
	switch level {
	case levelTolerant:
		return sn.marks || sn.ellipse
	case levelPairs:
		return sn.plus && sn.minus
	case levelWeak:
		return sn.weak
	case levelLoose:
		return sn.marks
	}
	return true
}
