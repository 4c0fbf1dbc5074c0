package udiff

import "strings"

// hunks reads the hunks after a "+++" line, up to the next file or the end.
// The file's hunks are a capped window of the parser's hunk slab.
func (p *parser) hunks(f *File) error {
	start := len(p.hunkSlab)
	defer func() {
		end := len(p.hunkSlab)
		if end > start {
			f.Hunks = p.hunkSlab[start:end:end]
		}
	}()
	for {
		line, ok := p.next()
		if !ok {
			return nil
		}
		if !strings.HasPrefix(line, "@@ ") {
			if strings.HasPrefix(line, "diff --git ") && len(p.hunkSlab) > start {
				p.back()
				return nil
			}
			return p.afterHunk(len(p.hunkSlab) > start, line)
		}
		h, err := p.hunkHeader(line)
		if err != nil {
			return err
		}
		if err := p.hunkBody(&h, f); err != nil {
			return err
		}
		start = p.addHunk(h, start)
	}
}

// addHunk appends h to the hunk slab. When the slab is full, the file's
// hunks so far (from start) move to a fresh one; it returns their new start.
func (p *parser) addHunk(h Hunk, start int) int {
	if len(p.hunkSlab) == cap(p.hunkSlab) {
		n := min(max(2*cap(p.hunkSlab), minSlab), maxSlab)
		slab := make([]Hunk, len(p.hunkSlab)-start, max(n, 2*(len(p.hunkSlab)-start)))
		copy(slab, p.hunkSlab[start:])
		p.hunkSlab, start = slab, 0
	}
	p.hunkSlab = append(p.hunkSlab, h)
	return start
}

// afterHunk explains a line that is neither a hunk header nor a new file.
func (p *parser) afterHunk(hasHunks bool, line string) error {
	if !hasHunks {
		return p.errorf(`expected a "@@" hunk header after "+++", got %s`, quoteLine(line))
	}
	return p.errorf(`expected "@@", "diff --git" or the end after a complete hunk, got %s (do the hunk header's line counts match its body?)`, quoteLine(line))
}

// hunkHeader parses "@@ -a[,b] +c[,d] @@[ section]".
func (p *parser) hunkHeader(line string) (Hunk, error) {
	var h Hunk
	rest, ok := strings.CutPrefix(line, "@@ -")
	if ok {
		h.OldStart, h.OldLines, rest, ok = rangeOf(rest, " +")
	}
	if ok {
		h.NewStart, h.NewLines, rest, ok = rangeOf(rest, " @@")
	}
	ok = ok && (rest == "" || rest[0] == ' ') &&
		(h.OldStart > 0 || h.OldLines == 0) && (h.NewStart > 0 || h.NewLines == 0)
	if !ok {
		return h, p.errorf(`expected a hunk header "@@ -<start>[,<count>] +<start>[,<count>] @@", got %s`, quoteLine(line))
	}
	h.Section = strings.TrimPrefix(rest, " ")
	return h, nil
}

// rangeOf parses "<start>[,<count>]" followed by end; count defaults to 1.
func rangeOf(s, end string) (start, count int, rest string, ok bool) {
	start, s, ok = decimal(s)
	if !ok {
		return 0, 0, "", false
	}
	count = 1
	if strings.HasPrefix(s, ",") {
		if count, s, ok = decimal(s[1:]); !ok {
			return 0, 0, "", false
		}
	}
	rest, ok = strings.CutPrefix(s, end)
	return start, count, rest, ok
}

// decimal parses a decimal of at most nine digits at the start of s.
func decimal(s string) (int, string, bool) {
	n, i := 0, 0
	for ; i < len(s) && i < 10 && s[i] >= '0' && s[i] <= '9'; i++ {
		n = n*10 + int(s[i]-'0')
	}
	return n, s[i:], i > 0 && i < 10
}
