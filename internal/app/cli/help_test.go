package cli

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/internal/app/config"
)

// A mistyped flag is one usage error naming the nearest flag and the help
// to run; a command without flags says so.
func TestParseErrorSuggests(t *testing.T) {
	for _, tc := range []struct {
		cmd, arg, want string
	}{
		{"review", "--formt", "unknown flag --formt; did you mean --format? Run 'ocr review --help'."},
		{"scan", "--max-comment", "did you mean --max-comments?"},
		{"rules list", "--repo", "ocr rules list takes no arguments (--repo)."},
		{"review", "--format", "--format needs a value: "},
	} {
		var cfg config.Config
		sub := Find(tc.cmd)
		fs := FlagSet(sub, &cfg, nil)
		err := ParseError(sub, fs, fs.Parse([]string{tc.arg}))
		var ue *UsageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ocr %s %s: %v, want a usage error containing %q", tc.cmd, tc.arg, err, tc.want)
		}
	}
}

// Help lists only the flags a command takes, with their variables.
func TestPrintHelpListsOwnFlags(t *testing.T) {
	var b strings.Builder
	var cfg config.Config
	sub := Find("rules check")
	if err := PrintHelp(&b, sub, FlagSet(sub, &cfg, nil)); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if !strings.Contains(out, "--config-ref REF") || !strings.Contains(out, "[OCR_CONFIG_REF]") || strings.Contains(out, "--format") {
		t.Errorf("rules check help:\n%s", out)
	}
	if err := PrintHelp(failingWriter{}, sub, FlagSet(sub, &cfg, nil)); err == nil {
		t.Error("a failed write was not reported")
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, io.ErrClosedPipe }

// TestScanHelpSaysWhatAPathIs: `ocr scan --help` says what docs/scan.md
// says of PATHs: relative to the current directory, none means everything, flags
// before or after them.
func TestScanHelpSaysWhatAPathIs(t *testing.T) {
	var cfg config.Config
	sub := Find("scan")
	var b strings.Builder
	if err := PrintHelp(&b, sub, FlagSet(sub, &cfg, nil)); err != nil {
		t.Fatal(err)
	}
	help := strings.Join(strings.Fields(b.String()), " ")
	for _, want := range []string{"relative to the current directory", "none means everything", "flags may come before or after the PATHs"} {
		if !strings.Contains(help, want) {
			t.Errorf("ocr scan --help lacks %q:\n%s", want, b.String())
		}
	}
}
