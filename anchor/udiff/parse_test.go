package udiff

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestParseMegabyteLines checks that lines of megabytes, with and without a
// CR, come through whole.
func TestParseMegabyteLines(t *testing.T) {
	big := strings.Repeat("x", 3<<20)
	diff := "diff --git a/big b/big\nindex 1111111..2222222 100644\n--- a/big\n+++ b/big\n" +
		"@@ -1,2 +1,2 @@\n " + big + "\r\n-" + big + "a\n+" + big + "b\n\\ No newline at end of file\n"
	files, err := Parse([]byte(diff))
	if err != nil {
		t.Fatal(err)
	}
	lines := files[0].Hunks[0].Lines
	if len(lines) != 3 || lines[0].Text != big+"\r" || lines[1].Text != big+"a" || lines[2].Text != big+"b" {
		t.Fatalf("got %d lines with lengths %v", len(lines), lineLengths(lines))
	}
	if lines[1].NoNewline || !lines[2].NoNewline {
		t.Errorf("NoNewline = %v, %v; want false, true", lines[1].NoNewline, lines[2].NoNewline)
	}
}

func lineLengths(lines []Line) []int {
	var n []int
	for _, l := range lines {
		n = append(n, len(l.Text))
	}
	return n
}

// TestParseErrorLine checks that errors are *ParseError with the line.
func TestParseErrorLine(t *testing.T) {
	diff := "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n a\n?b\n"
	_, err := Parse([]byte(diff))
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Line != 6 {
		t.Fatalf("err = %v; want a *ParseError at line 6", err)
	}
}

// TestParseLyingHeader checks that huge header counts fail as a truncated
// hunk instead of allocating what the header claims.
func TestParseLyingHeader(t *testing.T) {
	diff := "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,999999999 +1,999999999 @@\n a\n"
	_, err := Parse([]byte(diff))
	if err == nil || !strings.Contains(err.Error(), "unexpected end") {
		t.Fatalf("err = %v; want a truncated-hunk error", err)
	}
	diff = "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,1999999999 +1 @@\n a\n"
	if _, err := Parse([]byte(diff)); err == nil || !strings.Contains(err.Error(), "hunk header") {
		t.Fatalf("err = %v; want a bad hunk header error", err)
	}
}

// TestParseHunksDoNotShare checks that appending to one hunk's lines cannot
// overwrite the next hunk's (they share a slab).
func TestParseHunksDoNotShare(t *testing.T) {
	diff := "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n@@ -5 +5 @@\n-c\n+d\n"
	files, err := Parse([]byte(diff))
	if err != nil {
		t.Fatal(err)
	}
	h := files[0].Hunks
	_ = append(h[0].Lines, Line{Text: "clobber"})
	if h[1].Lines[0].Text != "c" {
		t.Errorf("second hunk's first line = %q after appending to the first", h[1].Lines[0].Text)
	}
}

// TestUnquoteC covers git's C-style quoting.
func TestUnquoteC(t *testing.T) {
	for _, tc := range []struct {
		in, name, rest string
		ok             bool
	}{
		{`"plain" tail`, "plain", " tail", true},
		{`"\303\244.txt"`, "ä.txt", "", true},
		{`"a\tb\\c\"d"`, "a\tb\\c\"d", "", true},
		{`"\a\b\f\n\r\v"`, "\a\b\f\n\r\v", "", true},
		{`"\400"`, "", "", false},
		{`"\30"`, "", "", false},
		{`"\q"`, "", "", false},
		{`"open`, "", "", false},
		{`"ends in backslash\"`, "", "", false},
	} {
		name, rest, ok := unquoteC(tc.in)
		if name != tc.name || rest != tc.rest || ok != tc.ok {
			t.Errorf("unquoteC(%q) = %q, %q, %v; want %q, %q, %v", tc.in, name, rest, ok, tc.name, tc.rest, tc.ok)
		}
	}
}

// TestSplitNames covers the "diff --git" and "Binary files" name splits.
func TestSplitNames(t *testing.T) {
	for _, tc := range []struct {
		in, sep, a, b string
		ok            bool
	}{
		{"a/x b/x", " ", "x", "x", true},
		{"a/x b/y b/x b/y", " ", "x b/y", "x b/y", true},
		{"a/old b/new", " ", "old", "new", true},
		{"a/x b/y b/z", " ", "", "", false},
		{`"a/t\tx" "b/t\tx"`, " ", "t\tx", "t\tx", true},
		{`a/plain "b/q\"x"`, " ", "plain", `q"x`, true},
		{"/dev/null and b/n and m", " and ", "", "n and m", true},
		{"a/x and y and /dev/null", " and ", "x and y", "", true},
		{"x y", " ", "", "", false},
	} {
		a, b, ok := splitNames(tc.in, tc.sep)
		if ok != tc.ok || ok && (a != tc.a || b != tc.b) {
			t.Errorf("splitNames(%q, %q) = %q, %q, %v; want %q, %q, %v", tc.in, tc.sep, a, b, ok, tc.a, tc.b, tc.ok)
		}
	}
}

// TestParseManyHunks crosses the slab boundaries of hunks and lines within
// one file and checks every hunk survives the move.
func TestParseManyHunks(t *testing.T) {
	var b strings.Builder
	for f := 0; f < 3; f++ {
		fmt.Fprintf(&b, "diff --git a/f%d b/f%d\n--- a/f%d\n+++ b/f%d\n", f, f, f, f)
		for h := 1; h <= 300; h++ {
			fmt.Fprintf(&b, "@@ -%d +%d @@\n-old %d\n+new %d\n", h*10, h*10, h, h)
		}
	}
	files, err := Parse([]byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if msg := consistency(files); msg != "" {
		t.Fatal(msg)
	}
	for _, f := range files {
		for i, h := range f.Hunks {
			if want := fmt.Sprintf("new %d", i+1); len(h.Lines) != 2 || h.Lines[1].Text != want || h.NewStart != (i+1)*10 {
				t.Fatalf("%s hunk %d = %+v; want new line %q", f.NewPath, i, h, want)
			}
		}
	}
}
