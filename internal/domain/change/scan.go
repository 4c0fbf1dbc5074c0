package change

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/ocr-ci/ocr/internal/domain/selection"
	"github.com/ocr-ci/ocr/tools"
)

// scanBinaryProbe is how much of a file is looked at for a NUL byte, as git
// does to call a file binary.
const scanBinaryProbe = 8000

// ScanRequest says what a scan presents.
type ScanRequest struct {
	Mode, Head string // the Change's mode and head
	// Paths keep the files under one of them (all files when none).
	Paths []string
	// Only, when not nil, narrows the files to those it lists (--since); a
	// PATH must still match a file of the tree, changed or not.
	Only []string
	// ByPath reports whether selection leaves a file out by its path alone.
	ByPath func(path string) bool
}

// Scan builds the change of a scan: every file of src under one of the
// request's Paths, each presented whole as an added file. Anchoring,
// selection, grouping and the reporters then work as for a review, and
// every line of every file can be commented on. Credentials files are
// listed but never read; of the files selection leaves out by their path
// alone (ByPath), only whether they are binary is kept, so a large
// vendored tree costs no memory.
func Scan(ctx context.Context, src tools.Source, req ScanRequest) (*Change, error) {
	all, err := src.ListFiles(ctx)
	if err != nil {
		return nil, fmt.Errorf("could not list the files to scan: %w", err)
	}
	files, err := underPaths(all, req.Paths)
	if err != nil {
		return nil, err
	}
	files = keepOnly(files, req.Only)
	var raw strings.Builder
	for _, p := range files {
		if selection.IsSecretPath(p) {
			writeAddedDiff(&raw, p, nil) // selection skips it as secret
			continue
		}
		data, err := src.ReadFile(ctx, p)
		if err != nil && !errors.Is(err, tools.ErrNotFound) {
			return nil, fmt.Errorf("could not read %s: %w", p, err)
		}
		if err != nil {
			continue // a symlink to a directory or outside, a submodule: no file
		}
		if req.ByPath(p) && !isBinary(data) {
			data = nil // left out by its path: only the binary reason would come first
		}
		writeAddedDiff(&raw, p, data)
	}
	ch := &Change{Mode: req.Mode, Head: req.Head}
	return ch, ch.Parse(raw.String(), nil)
}

// PathError is a PATH argument of a scan that matches no file: the user's
// mistake, a usage error (exit 2).
type PathError struct {
	Path string
	// Why is what is wrong with it; "" means it matches no file.
	Why string
}

// underPaths keeps the files under one of prefixes, in the list's order. A
// prefix that matches no file is an error (*PathError): a typo must not
// scan nothing.
func underPaths(all, prefixes []string) ([]string, error) {
	if len(prefixes) == 0 {
		return all, nil
	}
	used := make([]bool, len(prefixes))
	var out []string
	for _, f := range all {
		for i, p := range prefixes {
			if p == "" || f == p || strings.HasPrefix(f, p+"/") {
				used[i] = true
				out = append(out, f)
				break
			}
		}
	}
	for i, ok := range used {
		if !ok {
			return nil, &PathError{Path: prefixes[i]}
		}
	}
	return out, nil
}

// writeAddedDiff writes the diff git would print for p added with content
// data: a binary notice, no hunk for an empty file, else one hunk of
// added lines.
func writeAddedDiff(b *strings.Builder, p string, data []byte) {
	a, bb := quotePath("a/"+p), quotePath("b/"+p)
	fmt.Fprintf(b, "diff --git %s %s\nnew file mode 100644\n", a, bb)
	if isBinary(data) {
		fmt.Fprintf(b, "Binary files /dev/null and %s differ\n", bb)
		return
	}
	if len(data) == 0 {
		return
	}
	text := string(data)
	noEOL := !strings.HasSuffix(text, "\n")
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	fmt.Fprintf(b, "--- /dev/null\n+++ %s\n@@ -0,0 +1", bb)
	if len(lines) != 1 {
		fmt.Fprintf(b, ",%d", len(lines))
	}
	b.WriteString(" @@\n")
	for _, l := range lines {
		b.WriteByte('+')
		b.WriteString(l)
		b.WriteByte('\n')
	}
	if noEOL {
		b.WriteString("\\ No newline at end of file\n")
	}
}

// isBinary reports whether data looks binary to git: a NUL byte early on.
func isBinary(data []byte) bool {
	return bytes.IndexByte(data[:min(len(data), scanBinaryProbe)], 0) >= 0
}

// quotePath quotes a diff path the way git does (quote_c_style) when it
// holds a byte that needs it; a space is quoted too, so the "diff --git"
// line is never ambiguous.
func quotePath(p string) string {
	need := false
	for i := 0; i < len(p); i++ {
		if c := p[i]; c < 0x21 || c >= 0x7f || c == '"' || c == '\\' {
			need = true
			break
		}
	}
	if !need {
		return p
	}
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(p); i++ {
		switch c := p[i]; {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c == '\t':
			b.WriteString(`\t`)
		case c == '\n':
			b.WriteString(`\n`)
		case c == ' ' || (c >= 0x21 && c < 0x7f):
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, "\\%03o", c)
		}
	}
	b.WriteByte('"')
	return b.String()
}
