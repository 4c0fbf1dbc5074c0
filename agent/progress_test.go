package agent

import (
	"context"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/internal/testkit/llmtest"
	"github.com/ocr-ci/ocr/tools"
)

// A path from the diff is untrusted: a newline in it must not start a line
// of the progress output (stderr), where GitHub Actions would run it as a
// workflow command.
func TestProgressKeepsUntrustedTextOnOneLine(t *testing.T) {
	const evil = "svc/x\n::error title=pwned::forged\r::add-mask::x.go"
	head := copyMap(calcHead)
	head[evil] = "package svc\n"
	f := newFixture(t, copyMap(calcBase), head)
	found := false
	for _, in := range f.input.Files {
		found = found || in.Path == evil
	}
	if !found {
		t.Fatalf("fixture lacks the file %q: %v", evil, f.input.Files)
	}
	srv := llmtest.New(t, llmtest.Script{Match: []string{mainMark}, Repeat: true,
		Answers: []llmtest.Answer{{Calls: []llmtest.Call{llmtest.Done()}}}})
	var progress strings.Builder
	New(Config{Progress: &progress, GroupFiles: 1}, client(t, srv, nil), tools.Default()).Review(context.Background(), f.input)
	out := progress.String()
	if !strings.Contains(out, `svc/x\n::error title=pwned::forged\r::add-mask::x.go`) {
		t.Errorf("progress does not name the file escaped:\n%s", out)
	}
	for _, line := range strings.FieldsFunc(out, func(r rune) bool { return r == '\n' || r == '\r' }) {
		if !strings.HasPrefix(line, "ocr: ") {
			t.Errorf("progress line not written by ocr: %q", line)
		}
	}
}

// An escape sequence in a path must not reach a terminal or CI log raw: it
// could recolour or hide what ocr writes.
func TestProgressEscapesControlCharacters(t *testing.T) {
	const evil = "svc/esc\x1b[8mhidden\x1b[0m\x07.go"
	head := copyMap(calcHead)
	head[evil] = "package svc\n"
	f := newFixture(t, copyMap(calcBase), head)
	srv := llmtest.New(t, llmtest.Script{Match: []string{mainMark}, Repeat: true,
		Answers: []llmtest.Answer{{Calls: []llmtest.Call{llmtest.Done()}}}})
	var progress strings.Builder
	New(Config{Progress: &progress, GroupFiles: 1}, client(t, srv, nil), tools.Default()).Review(context.Background(), f.input)
	out := progress.String()
	if strings.ContainsAny(out, "\x1b\x07") {
		t.Errorf("progress holds raw control characters: %q", out)
	}
	if !strings.Contains(out, `svc/esc\x1b[8mhidden\x1b[0m\x07.go`) {
		t.Errorf("progress does not name the file escaped:\n%q", out)
	}
}
