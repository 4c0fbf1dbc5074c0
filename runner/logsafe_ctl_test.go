package runner

import (
	"strings"
	"testing"
)

// TestSafeLinesEscapesControlCharacters: a path holding an escape sequence
// (clear screen, hidden text) reaches stderr escaped, not raw.
func TestSafeLinesEscapesControlCharacters(t *testing.T) {
	t.Parallel()
	out := safeLines("skipping nest\x1b[2J\x1b[8mx\x07/: a nested repository\nnext\tline")
	if strings.ContainsAny(out, "\x1b\x07") {
		t.Errorf("raw control characters in %q", out)
	}
	for _, want := range []string{`nest\x1b[2J\x1b[8mx\x07/`, "\nocr:   next\tline"} {
		if !strings.Contains(out, want) {
			t.Errorf("%q lacks %q", out, want)
		}
	}
}
