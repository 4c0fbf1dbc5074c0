package tools

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseGrep(t *testing.T) {
	out := "REF:a.go:3:x := 1\n" +
		"REF:a:1/b:2:.go:7:has: colons:9:\n" +
		"REF:c.go:10:\n" +
		"Binary file REF:bin matches\n" +
		"REF:z\x0012\x00nul form\n"
	known := map[string]bool{"a.go": true, "a:1/b:2:.go": true, "c.go": true}
	got := parseGrep([]byte(out), "REF:", known)
	want := []Match{
		{Path: "a.go", Line: 3, Text: "x := 1"},
		{Path: "a:1/b:2:.go", Line: 7, Text: "has: colons:9:"},
		{Path: "c.go", Line: 10, Text: ""},
		{Path: "z", Line: 12, Text: "nul form"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("parseGrep (-want +got):\n%s", diff)
	}
	// Without a file list the first split wins.
	if got := parseGrep([]byte("a:1:b:2:c\n"), "", nil); len(got) != 1 || got[0].Path != "a" || got[0].Line != 1 {
		t.Errorf("no list: %+v", got)
	}
}
