package reporters_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/ocr-ci/ocr/reporters"
	"github.com/ocr-ci/ocr/review/reportspec"
)

func TestCheckAndOpen(t *testing.T) {
	dir := t.TempDir()
	existing := filepath.Join(dir, "keep.json")
	if err := os.WriteFile(existing, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	fresh := filepath.Join(dir, "new.sarif")
	ok := []reportspec.Spec{{Kind: reportspec.KindJSON, Path: existing}, {Kind: reportspec.KindSARIF, Path: fresh}, {Kind: reportspec.KindText, Path: "-"}}
	if err := (reporters.Files{}).CheckWritable(ok); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(existing); string(b) != "old" {
		t.Error("Check truncated an existing file")
	}
	if _, err := os.Stat(fresh); !os.IsNotExist(err) {
		t.Error("Check left the file it created")
	}
	bad := []reportspec.Spec{{Kind: reportspec.KindSARIF, Path: filepath.Join(dir, "missing", "x.sarif")}, {Kind: reportspec.KindGitHubSummary}}
	if err := (reporters.Files{}).CheckWritable(bad); err == nil {
		t.Error("unwritable path and missing summary path accepted")
	}
	var stdout bytes.Buffer
	w, err := reporters.Files{}.Open(reportspec.Spec{Kind: reportspec.KindJSON, Path: "-"}, &stdout)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write([]byte("x")); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	summary := filepath.Join(dir, "summary.md")
	for i := 0; i < 2; i++ {
		w, err := reporters.Files{}.Open(reportspec.Spec{Kind: reportspec.KindGitHubSummary, Path: summary}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte("a")); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if b, _ := os.ReadFile(summary); string(b) != "aa" || stdout.String() != "x" {
		t.Errorf("summary %q (want appended), stdout %q", b, stdout.String())
	}
}
