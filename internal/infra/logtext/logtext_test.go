package logtext

import (
	"strings"
	"testing"
)

var hostile = []string{
	"evil\n::error file=x::pwned",
	"a\r::add-mask::x",
	"a\r\n::set-output name=x::y",
	"a\u2028::error::x\u0085::warning::y\u2029::notice::z",
	"clear \x1b[2J screen \u009b31m",
}

func TestOneLine(t *testing.T) {
	for _, in := range hostile {
		out := OneLine(in)
		if strings.ContainsAny(out, "\r\n\u2028\u2029\u0085\x1b\u009b") {
			t.Errorf("OneLine(%q) = %q: a line break or control character survived", in, out)
		}
	}
	if got := OneLine("a\tb"); got != "a\tb" {
		t.Errorf("tabs are kept: %q", got)
	}
}

func TestLinesStartWithOurPrefix(t *testing.T) {
	for _, in := range hostile {
		out := "ocr: " + Lines(in, "ocr:   ")
		if strings.ContainsAny(out, "\r\u2028\u2029\u0085\x1b\u009b") {
			t.Errorf("Lines(%q) = %q: a control character survived", in, out)
		}
		for _, line := range strings.Split(out, "\n") {
			if !strings.HasPrefix(line, "ocr:") {
				t.Errorf("Lines(%q) gave a line ocr did not start: %q", in, line)
			}
		}
	}
}
