package github_test

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/ocr-ci/ocr/reporters/github"
	"github.com/ocr-ci/ocr/reporters/internal/reportertest"
	"github.com/ocr-ci/ocr/review"
)

// FuzzAnnotations asserts that no model text or path makes the reporter
// write a line that GitHub would parse as a command we did not write: every
// line starts with our "::", parses to exactly one command, and the message
// and file round-trip through the runner's unescaping.
func FuzzAnnotations(f *testing.F) {
	for _, c := range reportertest.FixtureComments() {
		f.Add(c.Content, c.Path, c.Suggestion, string(c.Category))
	}
	f.Add("::stop-commands::x\n::error::pwn", "a,b:c.go", "%0A::add-mask::x", "bug")
	f.Add("\r::warning::x\r\n##[error]y", "::x", "\u2028::notice::z", "::")
	f.Fuzz(func(t *testing.T, content, path, suggestion, category string) {
		r := &review.Review{Status: review.StatusComplete, Comments: []review.Comment{{
			Location: review.Location{Path: path, Side: review.SideNew, StartLine: 3, EndLine: 4},
			Content:  content, Suggestion: suggestion, Category: review.Category(category), Severity: review.SeverityHigh,
		}}}
		cmds := checkCommands(t, annotate(t, &github.Annotations{}, r), r)
		if len(cmds) != 1 {
			t.Fatalf("%d commands for one comment", len(cmds))
		}
		if cmds[0].props["line"] != "3" || cmds[0].props["endLine"] != "4" {
			t.Errorf("properties did not round-trip: %v", cmds[0].props)
		}
		// Invalid UTF-8 becomes U+FFFD and control characters are dropped;
		// any other path must come back unchanged.
		if utf8.ValidString(path) && !strings.ContainsFunc(path, unsafeRune) && cmds[0].props["file"] != path {
			t.Errorf("file %q became %q", path, cmds[0].props["file"])
		}
		if strings.ContainsRune(cmds[0].message+cmds[0].props["title"], '\x1b') {
			t.Errorf("an escape character reached the log: %q", cmds[0].message)
		}
	})
}

func unsafeRune(r rune) bool {
	return unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) || r == '\u2028' || r == '\u2029'
}
