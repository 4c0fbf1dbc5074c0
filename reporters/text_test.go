package reporters_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"unicode"

	"github.com/ocr-ci/ocr/reporters"
)

func TestTextGolden(t *testing.T) {
	for name, r := range fixtureCases() {
		for _, color := range []bool{false, true} {
			file := name + ".text.golden"
			if color {
				file = name + ".text-color.golden"
			}
			t.Run(file, func(t *testing.T) {
				var buf bytes.Buffer
				if err := (&reporters.Text{W: &buf, Color: color}).Report(context.Background(), r); err != nil {
					t.Fatal(err)
				}
				assertGolden(t, file, buf.Bytes())
				checkTextSafe(t, buf.String(), color)
			})
		}
	}
}

// checkTextSafe: no line can start a workflow command, no escape character
// except our own colour codes.
func checkTextSafe(t *testing.T, out string, color bool) {
	t.Helper()
	plain := out
	if color {
		for _, code := range []string{"\x1b[0m", "\x1b[1m", "\x1b[2m", "\x1b[1;31m", "\x1b[31m", "\x1b[33m", "\x1b[34m"} {
			plain = strings.ReplaceAll(plain, code, "")
		}
	}
	if strings.ContainsAny(plain, "\x1b\u202e\r") {
		t.Errorf("unsafe character in text output:\n%q", plain)
	}
	for _, line := range strings.Split(plain, "\n") {
		l := strings.TrimLeftFunc(line, unicode.IsSpace)
		if strings.HasPrefix(l, "::") || strings.HasPrefix(l, "##[") {
			t.Errorf("line could start a workflow command: %q", line)
		}
	}
}
