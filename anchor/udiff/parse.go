package udiff

import (
	"fmt"
	"strings"
)

// Parse parses the output of `git diff` (with the a/ and b/ prefixes, with
// core.quotepath either true or false) into its files, in diff order.
//
// The input is copied into one string once; every Line.Text and every
// unquoted path is a slice of that string, so parsing allocates almost
// nothing per line. An empty diff yields no files and no error. Malformed
// input (a header line git never writes, hunk bodies that do not match their
// header counts, an unknown line marker) is a *ParseError naming the line;
// the diff is never silently truncated. Combined diffs of merges
// ("diff --cc") are rejected: diff a merge against its first parent.
//
// The copy is deliberate: the files then keep exactly one diff-sized string
// alive, not the caller's buffer (whose capacity is often twice its length),
// and the caller may reuse or modify diff afterwards. A caller that already
// holds the diff as a string uses ParseString and saves the copy.
func Parse(diff []byte) ([]File, error) {
	return ParseString(string(diff))
}

// ParseString is Parse for a diff held as a string; the files slice it in
// place (Line.Text, paths, File.Raw).
func ParseString(diff string) ([]File, error) {
	p := parser{s: diff}
	return p.parse()
}

// parser reads a diff line by line. Between files it keeps only its
// position and the slabs that hunks and their lines are carved from.
type parser struct {
	s     string // the whole diff
	pos   int    // offset of the next unread line
	prev  int    // offset of the last line read, for back
	line  int    // 1-based number of the last line read
	lines []Line // slab: hunks take consecutive, capped windows of it
	// hunkSlab is the same for files' hunks.
	hunkSlab []Hunk
}

// next returns the next line without its "\n" (a CR before it is kept).
func (p *parser) next() (string, bool) {
	if p.pos >= len(p.s) {
		return "", false
	}
	p.prev = p.pos
	p.line++
	rest := p.s[p.pos:]
	if i := strings.IndexByte(rest, '\n'); i >= 0 {
		p.pos += i + 1
		return rest[:i], true
	}
	p.pos = len(p.s)
	return rest, true
}

// back un-reads the line next just returned; it may be called once per next.
func (p *parser) back() {
	p.pos = p.prev
	p.line--
}

// parse reads files until the end of the input.
func (p *parser) parse() ([]File, error) {
	var files []File
	if n := strings.Count(p.s, "\ndiff --git "); n > 0 {
		files = make([]File, 0, n+1)
	}
	for {
		line, ok := p.next()
		if !ok {
			return files, nil
		}
		if !strings.HasPrefix(line, "diff --git ") {
			return nil, p.unexpected(line)
		}
		f, err := p.file(line)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
}

// unexpected explains a line found where a new file must start.
func (p *parser) unexpected(line string) error {
	if strings.HasPrefix(line, "diff --cc ") || strings.HasPrefix(line, "diff --combined ") {
		return p.errorf("combined diff %s is not supported: diff a merge against its first parent", quoteLine(line))
	}
	return p.errorf(`expected "diff --git", got %s`, quoteLine(line))
}

// file parses one file: the "diff --git" line (already read), the extended
// header, then the hunks or the binary notice.
func (p *parser) file(gitLine string) (File, error) {
	begin := p.prev
	h := fileHeader{start: p.line}
	h.gitOld, h.gitNew, h.gitNamed = splitNames(gitLine[len("diff --git "):], " ")
	var f File
	hasHunks, err := p.header(&f, &h)
	if err != nil {
		return f, err
	}
	if hasHunks {
		if err := p.hunks(&f); err != nil {
			return f, err
		}
	}
	f.Raw = p.s[begin:p.pos]
	return f, h.finish(&f)
}

// ParseError reports malformed diff input.
type ParseError struct {
	// Line is the 1-based line number in the diff.
	Line int
	// Msg says what was expected and what was found.
	Msg string
}

// Error implements error.
func (e *ParseError) Error() string {
	return fmt.Sprintf("malformed diff at line %d: %s", e.Line, e.Msg)
}

// errorf builds a *ParseError at the line last read.
func (p *parser) errorf(format string, args ...any) error {
	return &ParseError{Line: p.line, Msg: fmt.Sprintf(format, args...)}
}

// quoteLine quotes a line for an error message, shortening very long ones.
func quoteLine(line string) string {
	const maxLen = 80
	if len(line) > maxLen {
		return fmt.Sprintf("%q...", line[:maxLen])
	}
	return fmt.Sprintf("%q", line)
}
