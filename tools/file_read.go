package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/ocr-ci/ocr/tools/internal/toolargs"
)

// fileRead shows lines of a file as it is at the target: a header, then
// "n|text" lines, at most readMaxLines per call.
func fileRead(ctx context.Context, s *Session, raw json.RawMessage) Result {
	a := toolargs.Parse(raw)
	name := a.Str("file_path", false)
	start, end := a.Int("start_line"), a.Int("end_line")
	if a.Err() != nil {
		return errorf("%s", a.Err())
	}
	if strings.TrimSpace(name) == "" {
		return errText("Error: file_path is required")
	}
	p, err := safePath(name)
	if err != nil {
		return errorf("%v", err)
	}
	// A backslash is a valid character in a git path: the name as given
	// is tried first (safePath checked its stricter, separator form).
	if lit, ok := literalPath(name); ok {
		if d, r := readSource(ctx, s, lit); r == nil {
			return renderFile(lit, d, start, end)
		}
	}
	data, r := readSource(ctx, s, p)
	if alt, ok := diffPrefixed(p); r != nil && ok && strings.HasPrefix(r.Text, "Error: file not found") {
		if d, r2 := readSource(ctx, s, alt); r2 == nil {
			data, r, p = d, nil, alt
		}
	}
	if r != nil && strings.HasPrefix(r.Text, "Error: file not found") && isDir(ctx, s, p) {
		return errorf("%s is a directory, not a file; use file_find to see its files", p)
	}
	if r != nil {
		return *r
	}
	return renderFile(p, data, start, end)
}

// renderFile shows lines start..end of p's content, or says it is binary.
func renderFile(p string, data []byte, start, end int) Result {
	if isBinary(data) {
		return text(fmt.Sprintf("File: %s is a binary file (%d bytes); it has no lines to show.", p, len(data)))
	}
	return renderLines(p, splitLines(data), start, end)
}

// readSource reads p from the session's source, mapping failures to the
// error results the model sees.
func readSource(ctx context.Context, s *Session, p string) ([]byte, *Result) {
	if s.Source == nil {
		r := errText("Error: no repository is open, so files cannot be read")
		return nil, &r
	}
	ctx, cancel := context.WithTimeout(ctx, readTimeout)
	defer cancel()
	data, err := s.Source.ReadFile(ctx, p)
	var r Result
	switch {
	case err == nil:
		return data, nil
	case errors.Is(err, ErrNotFound):
		r = errorf("file not found: %q. Use file_find to locate the exact path, then retry file_read.", p)
	case errors.Is(err, errOutside):
		r = errorf("file path %q is outside repository", p)
	default:
		r = errorf("could not read %s: %v", p, err)
	}
	return nil, &r
}

// isDir reports whether some listed file lies under p/.
func isDir(ctx context.Context, s *Session, p string) bool {
	ix, err := sourceIndex(ctx, s)
	if err != nil {
		return false
	}
	for _, f := range ix.files {
		if strings.HasPrefix(f, p+"/") {
			return true
		}
	}
	return false
}

// isBinary applies git's rule: a NUL byte in the first 8000 bytes.
func isBinary(data []byte) bool {
	return bytes.IndexByte(data[:min(len(data), binarySniff)], 0) >= 0
}

// splitLines splits on "\n", dropping the empty piece after a final
// newline and a trailing "\r" on each line.
func splitLines(data []byte) []string {
	if len(data) == 0 {
		return nil
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// renderLines formats lines start..end (1-based, inclusive; 0 = default).
// An end past the last line is clamped; a start past it is an error.
func renderLines(p string, lines []string, start, end int) Result {
	total := len(lines)
	if start < 1 {
		start = 1
	}
	if end >= 1 && start > end {
		return errorf("invalid line range: start_line %d is greater than end_line %d", start, end)
	}
	if total == 0 {
		return text(fmt.Sprintf("File: %s (Total lines: 0)\nIS_TRUNCATED: false\nLINE_RANGE: 0-0\n", p))
	}
	if start > total {
		return errorf("file %q has only %d lines, requested range %d-%d", p, total, start, max(end, start))
	}
	if end < 1 || end > total {
		end = total
	}
	truncated := end-start+1 > readMaxLines
	if truncated {
		end = start + readMaxLines - 1
	}
	var body strings.Builder
	last := start - 1
	for n := start; n <= end && body.Len() < readMaxChars; n++ {
		body.WriteString(strconv.Itoa(n))
		body.WriteByte('|')
		body.WriteString(cutLine(lines[n-1], readMaxLineChars))
		body.WriteByte('\n')
		last = n
	}
	var b strings.Builder
	fmt.Fprintf(&b, "File: %s (Total lines: %d)\nIS_TRUNCATED: %t\nLINE_RANGE: %d-%d\n",
		p, total, truncated || last < end, start, last)
	b.WriteString(body.String())
	switch {
	case last < end:
		fmt.Fprintf(&b, "Note: Output cut at line %d to stay under %d characters. Continue with start_line %d.\n", last, readMaxChars, last+1)
	case truncated:
		b.WriteString(readTruncatedNote + "\n")
	}
	return text(b.String())
}

// cutLine shortens a line longer than n bytes (on a rune boundary) and
// says how much was cut.
func cutLine(l string, n int) string {
	if len(l) <= n {
		return l
	}
	c := clip(l, n)
	return strings.TrimSuffix(c, "…") + fmt.Sprintf(" … [line cut: %d more bytes]", len(l)-len(c)+len("…"))
}

// diffPrefixed strips the "a/" or "b/" a model may copy from a diff
// header; it is tried only when the path as given does not exist.
func diffPrefixed(p string) (string, bool) {
	if rest, ok := strings.CutPrefix(p, "b/"); ok && rest != "" {
		return rest, true
	}
	if rest, ok := strings.CutPrefix(p, "a/"); ok && rest != "" {
		return rest, true
	}
	return "", false
}
