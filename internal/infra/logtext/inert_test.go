package logtext

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/internal/testkit/logtexttest"
)

// commandPayloads are workflow commands hidden in text ocr did not write.
var commandPayloads = []string{
	"##[stop-commands]x",
	"x ##[set-output name=status;]complete",
	"a.go: ##[add-mask]secret",
	"###[error]three hashes",
	"#\u200b#[warning]zero-width space",
	"#\u00ad#\u200d[error]soft hyphen and joiner",
	"##\x00[error]nul",
	"#\u0301#[error]combining mark",
	"evil\n::error file=x::pwned",
	"  ::warning::indented",
	"\u00a0::notice::no-break space",
	"\u200b::error::zero-width space",
	":\u200b:error::split colons",
	"line\r##[set-env name=X;]y",
	"::stop-commands::t\n##[t]",
}

func TestInertPayloads(t *testing.T) {
	for _, in := range commandPayloads {
		if logtexttest.CommandLine(in) == "" {
			t.Fatalf("payload %q is not a command by the runner's rules: the test is wrong", in)
		}
		if l := logtexttest.CommandLine(Inert(in)); l != "" {
			t.Errorf("Inert(%q) = %q: line %q is a workflow command", in, Inert(in), l)
		}
	}
}

func TestInertKeepsOrdinaryText(t *testing.T) {
	for _, s := range []string{"a::b", "map[string]int", "# heading [link]", "x := y", "## [not] a command", "ocr: ::x::"} {
		if got := Inert(s); got != s {
			t.Errorf("Inert(%q) = %q, want it unchanged", s, got)
		}
	}
}

func TestOneLineAndLinesAreInert(t *testing.T) {
	for _, in := range append(commandPayloads, hostile...) {
		for _, out := range []string{"ocr: " + OneLine(in), "ocr: " + Lines(in, "ocr:   ")} {
			if l := logtexttest.CommandLine(out); l != "" {
				t.Errorf("%q printed as %q: line %q is a workflow command", in, out, l)
			}
		}
	}
}

func TestInertKeepsJSONMeaning(t *testing.T) {
	for _, in := range commandPayloads {
		checkJSON(t, in)
	}
}

func checkJSON(t *testing.T, in string) {
	t.Helper()
	data, err := json.MarshalIndent(map[string][]string{"##[k]": {in}}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	out := Inert(string(data))
	var back map[string][]string
	if err := json.Unmarshal([]byte(out), &back); err != nil {
		t.Fatalf("Inert broke the JSON of %q: %v\n%s", in, err, out)
	}
	if got := back["##[k]"]; len(got) != 1 || got[0] != in {
		t.Errorf("JSON of %q decodes to %q after Inert", in, got)
	}
	if l := logtexttest.CommandLine(out); l != "" {
		t.Errorf("JSON of %q: line %q is a workflow command", in, l)
	}
}

func FuzzInert(f *testing.F) {
	for _, s := range commandPayloads {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if l := logtexttest.CommandLine(Inert(s)); l != "" {
			t.Errorf("Inert(%q): line %q is a workflow command", s, l)
		}
		if strings.ToValidUTF8(s, "") == s {
			checkJSON(t, s)
		}
	})
}

func FuzzLines(f *testing.F) {
	for _, s := range append(commandPayloads, hostile...) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, out := range []string{"ocr: " + OneLine(s), "ocr: " + Lines(s, "ocr:   ")} {
			if l := logtexttest.CommandLine(out); l != "" {
				t.Errorf("%q printed as %q: line %q is a workflow command", s, out, l)
			}
			for _, line := range strings.Split(out, "\n") {
				if !strings.HasPrefix(line, "ocr:") {
					t.Errorf("%q gave a line ocr did not start: %q", s, line)
				}
			}
		}
	})
}

func TestInlineBreaksOnlyLegacyCommands(t *testing.T) {
	for _, in := range commandPayloads {
		out := "ocr: " + strings.NewReplacer("\n", "%0A", "\r", "%0D").Replace(Inline(in))
		if l := logtexttest.CommandLine(out); l != "" {
			t.Errorf("Inline(%q): line %q is a workflow command", in, l)
		}
	}
	if got := Inline("::error::x"); got != "::error::x" {
		t.Errorf("Inline changed a colon form: %q", got)
	}
}
