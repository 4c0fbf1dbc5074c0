package udiff

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/internal/testkit/golden"
)

// TestParseGolden parses every testdata/<case>.diff and compares a text dump
// of the result (or the error) with testdata/<case>.golden.
func TestParseGolden(t *testing.T) {
	inputs, err := filepath.Glob(filepath.Join("testdata", "*.diff"))
	if err != nil || len(inputs) == 0 {
		t.Fatalf("no golden inputs: %v", err)
	}
	for _, in := range inputs {
		name := strings.TrimSuffix(filepath.Base(in), ".diff")
		t.Run(name, func(t *testing.T) {
			diff, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			files, err := Parse(diff)
			if strings.HasPrefix(name, "error-") != (err != nil) {
				t.Errorf("Parse error = %v; cases named error-* must fail, others must not", err)
			}
			if msg := consistency(files); msg != "" {
				t.Error(msg)
			}
			got := dumpFiles(files, err)
			checkGolden(t, strings.TrimSuffix(in, ".diff")+".golden", got)
		})
	}
}

// checkGolden compares got with the golden file, rewriting it under the
// test kit's -update flag.
func checkGolden(t *testing.T, path, got string) {
	t.Helper()
	golden.CheckString(t, path, got)
}

// dumpFiles renders parsed files readably: quoted texts show CRs and tabs.
func dumpFiles(files []File, err error) string {
	var b strings.Builder
	if err != nil {
		fmt.Fprintf(&b, "error: %v\n", err)
		return b.String()
	}
	if len(files) == 0 {
		b.WriteString("no files\n")
	}
	for i := range files {
		dumpFile(&b, i, &files[i])
	}
	return b.String()
}

// dumpFile renders one file and its hunks.
func dumpFile(b *strings.Builder, i int, f *File) {
	fmt.Fprintf(b, "file %d: %s +%d -%d\n", i, f.Status, f.Additions, f.Deletions)
	fmt.Fprintf(b, "  old %q\n  new %q\n", f.OldPath, f.NewPath)
	if f.OldMode != "" || f.NewMode != "" {
		fmt.Fprintf(b, "  mode %q -> %q\n", f.OldMode, f.NewMode)
	}
	if f.Similarity != 0 {
		fmt.Fprintf(b, "  similarity %d%%\n", f.Similarity)
	}
	for _, flag := range []struct {
		on   bool
		name string
	}{{f.Binary, "binary"}, {f.ModeOnly, "mode-only"}, {f.Submodule, "submodule"}} {
		if flag.on {
			fmt.Fprintf(b, "  %s\n", flag.name)
		}
	}
	for _, h := range f.Hunks {
		fmt.Fprintf(b, "  @@ -%d,%d +%d,%d @@ section %q\n", h.OldStart, h.OldLines, h.NewStart, h.NewLines, h.Section)
		for _, l := range h.Lines {
			nl := ""
			if l.NoNewline {
				nl = " (no newline)"
			}
			fmt.Fprintf(b, "    %4s %4s %c %q%s\n", lineNo(l.OldLine), lineNo(l.NewLine), l.Kind, l.Text, nl)
		}
	}
}

// lineNo shows 0 (not on that side) as "-".
func lineNo(n int) string {
	if n == 0 {
		return "-"
	}
	return fmt.Sprint(n)
}
