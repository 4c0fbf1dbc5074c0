package reporters_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/ocr-ci/ocr/reporters"
)

func TestParseSpec(t *testing.T) {
	for in, want := range map[string]reporters.Spec{
		"sarif=ocr.sarif":    {Kind: reporters.KindSARIF, Path: "ocr.sarif"},
		"sarif":              {Kind: reporters.KindSARIF, Path: "ocr.sarif"},
		"json=-":             {Kind: reporters.KindJSON, Path: "-"},
		"Text":               {Kind: reporters.KindText, Path: "-"},
		"codequality":        {Kind: reporters.KindCodeQuality, Path: "gl-code-quality-report.json"},
		"github-annotations": {Kind: reporters.KindGitHubAnnotations, Path: "-"},
		"github-summary":     {Kind: reporters.KindGitHubSummary},
		"github-review":      {Kind: reporters.KindGitHubReview},
		"gitlab-discussion":  {Kind: reporters.KindGitLabDiscussion},
		"json=out/a=b.json":  {Kind: reporters.KindJSON, Path: "out/a=b.json"},
	} {
		got, err := reporters.ParseSpec(in)
		if err != nil || got != want {
			t.Errorf("ParseSpec(%q) = %+v, %v; want %+v", in, got, err, want)
		}
	}
	for _, bad := range []string{"xml", "sarif=", "github-review=x", ""} {
		if _, err := reporters.ParseSpec(bad); err == nil {
			t.Errorf("ParseSpec(%q) accepted", bad)
		}
	}
	specs, err := reporters.ParseSpecs("sarif=a.sarif, json", "text")
	if err != nil || len(specs) != 3 || specs[1].Kind != reporters.KindJSON || specs[2].Kind != reporters.KindText {
		t.Errorf("ParseSpecs = %+v, %v", specs, err)
	}
}

func TestCheckAndOpen(t *testing.T) {
	dir := t.TempDir()
	existing := filepath.Join(dir, "keep.json")
	if err := os.WriteFile(existing, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	fresh := filepath.Join(dir, "new.sarif")
	ok := []reporters.Spec{{Kind: reporters.KindJSON, Path: existing}, {Kind: reporters.KindSARIF, Path: fresh}, {Kind: reporters.KindText, Path: "-"}}
	if err := reporters.CheckWritable(ok); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(existing); string(b) != "old" {
		t.Error("Check truncated an existing file")
	}
	if _, err := os.Stat(fresh); !os.IsNotExist(err) {
		t.Error("Check left the file it created")
	}
	bad := []reporters.Spec{{Kind: reporters.KindSARIF, Path: filepath.Join(dir, "missing", "x.sarif")}, {Kind: reporters.KindGitHubSummary}}
	if err := reporters.CheckWritable(bad); err == nil {
		t.Error("unwritable path and missing summary path accepted")
	}
	var stdout bytes.Buffer
	w, err := reporters.Spec{Kind: reporters.KindJSON, Path: "-"}.Open(&stdout)
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
		w, err := reporters.Spec{Kind: reporters.KindGitHubSummary, Path: summary}.Open(nil)
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
