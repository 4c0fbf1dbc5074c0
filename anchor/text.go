package anchor

import (
	"strings"

	"github.com/ocr-ci/ocr/anchor/udiff"
	"github.com/ocr-ci/ocr/review"
)

// Text returns the lines loc covers as they are in a file of the change
// set: from the hunks of loc's side, else, on the new side, from newFile
// (that file's whole new lines, as Options.NewFile gives them). CRs before
// the newlines are dropped. ok is false for a file-level location, a file
// outside the change set and lines neither source holds.
func (cs *ChangeSet) Text(loc review.Location, newFile []string) (string, bool) {
	f, ok := cs.File(loc.Path)
	if !ok || loc.FileLevel() || loc.EndLine < loc.StartLine {
		return "", false
	}
	if lines, ok := hunkText(f, loc); ok {
		return trimCR(lines), true
	}
	if loc.Side == review.SideNew && loc.EndLine <= len(newFile) {
		return trimCR(newFile[loc.StartLine-1 : loc.EndLine]), true
	}
	return "", false
}

// hunkText collects loc's lines from f's hunks on loc's side; ok only when
// every line was found.
func hunkText(f *udiff.File, loc review.Location) ([]string, bool) {
	out := make([]string, 0, loc.EndLine-loc.StartLine+1)
	for _, h := range f.Hunks {
		for _, l := range h.Lines {
			n := l.NewLine
			if loc.Side == review.SideOld {
				n = l.OldLine
			}
			if n == loc.StartLine+len(out) && n <= loc.EndLine {
				out = append(out, l.Text)
			}
		}
	}
	return out, len(out) == cap(out)
}

func trimCR(lines []string) string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.TrimSuffix(l, "\r")
	}
	return strings.Join(out, "\n")
}
