package runner

import (
	"strings"
	"testing"
)

func TestSafeLinesNeverStartsACommand(t *testing.T) {
	t.Parallel()
	for _, in := range []string{
		"not reviewed: evil\n::error file=x::pwned",
		"a\r::add-mask::x",
		"a\r\n::set-output name=x::y",
		"a\u2028::error::x\u0085::warning::y",
	} {
		out := "ocr: " + safeLines(in)
		for _, line := range strings.FieldsFunc(out, func(r rune) bool { return r == '\n' || r == '\r' }) {
			if !strings.HasPrefix(line, "ocr:") {
				t.Errorf("%q gave a line ocr did not start: %q", in, line)
			}
		}
	}
}
