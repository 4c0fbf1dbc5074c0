package udiff

// Slab sizes, in lines: hunks are carved from shared slabs so that a large
// diff costs a few dozen allocations for its lines rather than one per hunk.
const (
	minSlab = 64
	maxSlab = 8192
)

// reserve makes room for up to n lines of the next hunk in the slab. n comes
// from the hunk header and is capped by the bytes left, so a lying header
// cannot make the parser allocate more than the input could fill.
//
// Slabs double up to maxSlab lines, but no further than the rest of the
// input would fill at the average line length seen so far: the last slab of
// a diff is then mostly used. A wrong guess only costs another slab.
func (p *parser) reserve(n int) {
	left := len(p.s) - p.pos + 1
	n = min(n, left)
	if cap(p.lines)-len(p.lines) >= n {
		return
	}
	rest := left/max(p.pos/p.line, 1) + 1 // lines left at the average length
	size := min(max(2*cap(p.lines), minSlab), maxSlab, rest)
	p.lines = make([]Line, 0, max(size, n))
}

// hunkBody reads the lines of h, numbering them and counting additions and
// deletions into f. The body must hold exactly the header's counts.
func (p *parser) hunkBody(h *Hunk, f *File) error {
	p.reserve(h.OldLines + h.NewLines)
	start, header := len(p.lines), p.line
	oldNo, newNo := h.OldStart, h.NewStart
	oldLeft, newLeft := h.OldLines, h.NewLines
	for oldLeft > 0 || newLeft > 0 {
		line, ok := p.next()
		if !ok {
			p.line++
			return p.errorf("unexpected end of the diff inside the hunk at line %d: expected %d more old and %d more new lines", header, oldLeft, newLeft)
		}
		kind, text := Context, ""
		if line != "" { // git apply reads an empty line as empty context
			kind, text = LineKind(line[0]), line[1:]
		}
		l := Line{Kind: kind, Text: text}
		switch {
		case kind == Context && oldLeft > 0 && newLeft > 0:
			l.OldLine, l.NewLine = oldNo, newNo
			oldNo, newNo, oldLeft, newLeft = oldNo+1, newNo+1, oldLeft-1, newLeft-1
		case kind == Deleted && oldLeft > 0:
			l.OldLine, oldNo, oldLeft = oldNo, oldNo+1, oldLeft-1
			f.Deletions++
		case kind == Added && newLeft > 0:
			l.NewLine, newNo, newLeft = newNo, newNo+1, newLeft-1
			f.Additions++
		case kind == '\\' && len(p.lines) > start:
			p.lines[len(p.lines)-1].NoNewline = true
			continue
		default:
			return p.bodyError(line, header, oldLeft, newLeft)
		}
		p.lines = append(p.lines, l)
	}
	p.noNewline(start)
	end := len(p.lines)
	h.Lines = p.lines[start:end:end]
	return nil
}

// noNewline reads the "\ No newline at end of file" marker that may follow
// the last line of a hunk.
func (p *parser) noNewline(start int) {
	line, ok := p.next()
	if !ok {
		return
	}
	if line == "" || line[0] != '\\' || len(p.lines) == start {
		p.back()
		return
	}
	p.lines[len(p.lines)-1].NoNewline = true
}

// bodyError explains a line that does not fit the hunk at header.
func (p *parser) bodyError(line string, header, oldLeft, newLeft int) error {
	want := `" ", "-" or "+"`
	switch {
	case oldLeft == 0:
		want = `"+" (no old lines left)`
	case newLeft == 0:
		want = `"-" (no new lines left)`
	}
	return p.errorf("expected a hunk line starting with %s for the hunk at line %d (%d old and %d new lines left), got %s",
		want, header, oldLeft, newLeft, quoteLine(line))
}
