package udiff

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRawSectionsCoverTheDiff checks that every file's Raw is its own
// section: in order, the sections put together are the whole input.
func TestRawSectionsCoverTheDiff(t *testing.T) {
	inputs, err := filepath.Glob("testdata/*.diff")
	if err != nil || len(inputs) == 0 {
		t.Fatalf("no golden inputs: %v", err)
	}
	for _, in := range inputs {
		data, err := os.ReadFile(in)
		if err != nil {
			t.Fatal(err)
		}
		files, err := ParseString(string(data))
		if err != nil {
			continue // the error cases
		}
		var b strings.Builder
		for _, f := range files {
			if !strings.HasPrefix(f.Raw, "diff --git ") {
				t.Errorf("%s: %s: Raw does not start at its diff --git line: %.40q", in, f.Path(), f.Raw)
			}
			b.WriteString(f.Raw)
		}
		if b.String() != string(data) {
			t.Errorf("%s: the Raw sections do not add up to the diff", in)
		}
	}
}
