package text_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"github.com/ocr-ci/ocr/reporters/internal/reportertest"
	"github.com/ocr-ci/ocr/reporters/text"
)

func TestTextGolden(t *testing.T) {
	for name, r := range reportertest.FixtureCases() {
		for _, color := range []bool{false, true} {
			file := name + ".text.golden"
			if color {
				file = name + ".text-color.golden"
			}
			t.Run(file, func(t *testing.T) {
				var buf bytes.Buffer
				if err := (&text.Reporter{W: &buf, Color: color}).Report(context.Background(), r); err != nil {
					t.Fatal(err)
				}
				reportertest.AssertGolden(t, file, buf.Bytes())
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

func TestUseColor(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	var buf bytes.Buffer
	if text.UseColor(&buf, env(nil)) {
		t.Error("colour for a buffer")
	}
	f, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if text.UseColor(f, env(nil)) {
		t.Error("colour for a regular file")
	}
	if tty, err := os.OpenFile("/dev/null", os.O_WRONLY, 0); err == nil {
		defer tty.Close()
		if !text.UseColor(tty, env(nil)) || text.UseColor(tty, env(map[string]string{"NO_COLOR": "1"})) {
			t.Error("character device: colour unless NO_COLOR")
		}
	}
}
