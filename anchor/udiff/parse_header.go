package udiff

import (
	"strconv"
	"strings"
)

// fileHeader collects what a file's extended header says before the paths and
// the status can be decided.
type fileHeader struct {
	start           int // line of "diff --git"
	gitOld, gitNew  string
	gitNamed        bool // the "diff --git" line split unambiguously
	named           bool // paths came from rename/copy or ---/+++ lines
	added, deleted  bool
	renamed, copied bool
	modeLines       bool // "old mode"/"new mode" were present
	binOld, binNew  string
	binNamed        bool // names from "Binary files ... differ"
}

// header reads the extended header lines of a file. It reports whether
// hunks follow (a "---"/"+++" pair was read).
func (p *parser) header(f *File, h *fileHeader) (bool, error) {
	for {
		line, ok := p.next()
		if !ok {
			return false, nil
		}
		switch {
		case strings.HasPrefix(line, "diff --git "):
			p.back()
			return false, nil
		case strings.HasPrefix(line, "--- "):
			return true, p.names(f, h, line)
		case strings.HasPrefix(line, "Binary files "):
			f.Binary = true
			h.binOld, h.binNew, h.binNamed = splitNames(binaryNames(line), " and ")
			return false, nil
		case line == "GIT binary patch":
			f.Binary = true
			return false, p.binaryPatch()
		case strings.HasPrefix(line, "@@"):
			return false, p.errorf(`hunk header before the "---" and "+++" lines`)
		default:
			if err := p.extended(f, h, line); err != nil {
				return false, err
			}
		}
	}
}

// extended applies one extended header line (git-diff(1), "Generating
// patch text with -p").
func (p *parser) extended(f *File, h *fileHeader, line string) error {
	key, val, err := p.keyword(line)
	if err != nil {
		return err
	}
	switch key {
	case "old mode ":
		f.OldMode, h.modeLines = val, true
	case "new mode ":
		f.NewMode, h.modeLines = val, true
	case "deleted file mode ":
		f.OldMode, h.deleted = val, true
	case "new file mode ":
		f.NewMode, h.added = val, true
	case "similarity index ", "dissimilarity index ":
		return p.similarity(f, key, val)
	case "index ":
		p.index(f, val)
	default: // rename/copy from/to: plain paths, quoted when needed
		return p.movePath(f, h, key, val)
	}
	return nil
}

// headerKeys are the extended header lines git writes, longest first where
// one is a prefix of another.
var headerKeys = [...]string{
	"old mode ", "new mode ", "deleted file mode ", "new file mode ",
	"similarity index ", "dissimilarity index ", "index ",
	"rename from ", "rename to ", "rename old ", "rename new ",
	"copy from ", "copy to ",
}

// keyword splits a header line into its key and value.
func (p *parser) keyword(line string) (string, string, error) {
	for _, k := range headerKeys {
		if strings.HasPrefix(line, k) {
			return k, line[len(k):], nil
		}
	}
	return "", "", p.errorf(`expected an extended header line ("index", "new file mode", "rename from", ...), "---", "Binary files" or "diff --git", got %s`, quoteLine(line))
}

// similarity records "similarity index 87%".
func (p *parser) similarity(f *File, key, val string) error {
	n, err := strconv.Atoi(strings.TrimSuffix(val, "%"))
	if err != nil || n < 0 || n > 100 || !strings.HasSuffix(val, "%") {
		return p.errorf("expected a percentage after %q, got %s", key, quoteLine(val))
	}
	if key == "similarity index " {
		f.Similarity = n
	}
	return nil
}

// index reads "index abc..def 100644": the mode, when present, is the mode
// of both sides (git writes it only when the mode did not change).
func (p *parser) index(f *File, val string) {
	if _, mode, ok := strings.Cut(val, " "); ok {
		if f.OldMode == "" && f.NewMode == "" {
			f.OldMode, f.NewMode = mode, mode
		}
	}
}

// movePath records "rename from X" and its kin.
func (p *parser) movePath(f *File, h *fileHeader, key, val string) error {
	name, ok := pathValue(val)
	if !ok {
		return p.errorf("expected a path after %q, got %s", key, quoteLine(val))
	}
	h.named = true
	switch key {
	case "rename from ", "rename old ":
		f.OldPath, h.renamed = name, true
	case "rename to ", "rename new ":
		f.NewPath, h.renamed = name, true
	case "copy from ":
		f.OldPath, h.copied = name, true
	case "copy to ":
		f.NewPath, h.copied = name, true
	}
	return nil
}

// names reads the "--- a/X" line (already read) and the "+++ b/Y" line.
func (p *parser) names(f *File, h *fileHeader, minus string) error {
	old, oldNull, ok := sideName(minus[len("--- "):], "a/")
	if !ok {
		return p.errorf(`expected "--- a/<path>" or "--- /dev/null", got %s (run git diff with --src-prefix=a/ --dst-prefix=b/)`, quoteLine(minus))
	}
	plus, _ := p.next()
	if !strings.HasPrefix(plus, "+++ ") {
		return p.errorf(`expected "+++" after "---", got %s`, quoteLine(plus))
	}
	nw, newNull, ok := sideName(plus[len("+++ "):], "b/")
	if !ok {
		return p.errorf(`expected "+++ b/<path>" or "+++ /dev/null", got %s (run git diff with --src-prefix=a/ --dst-prefix=b/)`, quoteLine(plus))
	}
	h.added = h.added || oldNull
	h.deleted = h.deleted || newNull
	if !h.named {
		f.OldPath, f.NewPath, h.named = old, nw, true
	}
	return nil
}
