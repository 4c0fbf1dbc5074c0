package udiff

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// FuzzParse checks that Parse never panics and that whatever it accepts is
// consistent with the hunk headers. The seed corpus in
// testdata/fuzz/FuzzParse holds the golden inputs.
func FuzzParse(f *testing.F) {
	f.Add([]byte("diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n"))
	f.Fuzz(func(t *testing.T, diff []byte) {
		files, err := Parse(diff)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is %T, want *ParseError", err, err)
			}
			return
		}
		if msg := consistency(files); msg != "" {
			t.Fatal(msg)
		}
	})
}

// consistency returns what is wrong with parsed files, or "".
func consistency(files []File) string {
	for i := range files {
		f := &files[i]
		if msg := fileConsistency(f); msg != "" {
			return fmt.Sprintf("file %d (%q): %s", i, f.Path(), msg)
		}
	}
	return ""
}

// fileConsistency checks one file's status, counts and line numbers.
func fileConsistency(f *File) string {
	switch {
	case f.Status == StatusAdded && f.OldPath != "", f.Status == StatusDeleted && f.NewPath != "":
		return "added file with an old path or deleted file with a new path"
	case f.Path() == "":
		return "no path"
	case cap(f.Hunks) != len(f.Hunks):
		return "hunks have spare capacity shared with the next file"
	}
	adds, dels := 0, 0
	for j, h := range f.Hunks {
		if cap(h.Lines) != len(h.Lines) {
			return fmt.Sprintf("hunk %d: lines have spare capacity shared with the next hunk", j)
		}
		oldNo, newNo := h.OldStart, h.NewStart
		for _, l := range h.Lines {
			if strings.ContainsRune(l.Text, '\n') {
				return fmt.Sprintf("hunk %d: line text %q holds a newline", j, l.Text)
			}
			wantOld, wantNew := 0, 0
			switch l.Kind {
			case Context:
				wantOld, wantNew = oldNo, newNo
			case Deleted:
				wantOld = oldNo
				dels++
			case Added:
				wantNew = newNo
				adds++
			default:
				return fmt.Sprintf("hunk %d: line kind %q", j, l.Kind)
			}
			if l.OldLine != wantOld || l.NewLine != wantNew {
				return fmt.Sprintf("hunk %d: line %+v, want old %d new %d", j, l, wantOld, wantNew)
			}
			if wantOld != 0 {
				oldNo++
			}
			if wantNew != 0 {
				newNo++
			}
		}
		if oldNo-h.OldStart != h.OldLines || newNo-h.NewStart != h.NewLines {
			return fmt.Sprintf("hunk %d: %d old and %d new lines, header says %d and %d",
				j, oldNo-h.OldStart, newNo-h.NewStart, h.OldLines, h.NewLines)
		}
	}
	if adds != f.Additions || dels != f.Deletions {
		return fmt.Sprintf("counted +%d -%d, file says +%d -%d", adds, dels, f.Additions, f.Deletions)
	}
	return ""
}
