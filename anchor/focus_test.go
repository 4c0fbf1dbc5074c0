package anchor

import (
	"context"
	"reflect"
	"testing"

	"github.com/ocr-ci/ocr/review"
)

// On dupDiff, "x := 1" is at new lines 4 (outside the hunks), 10 (outside)
// and 15 (added); "done()" is added at 6 and 17; "use(x)" is at 5, 11 and 16.
func dupResolve(t *testing.T, code string) (review.Location, []int) {
	t.Helper()
	cs := parseChangeSet(t, dupDiff)
	opt := Options{NewFile: func(p string) ([]string, bool) { return dupNew, p == "dup.go" }}
	return ResolveAll(context.Background(), Query{Path: "dup.go", Code: code}, cs, opt)
}

func TestResolveAllPlaces(t *testing.T) {
	for _, c := range []struct {
		code   string
		places []int
	}{
		{"done()", []int{6, 17}},        // equals: both
		{"use(x)", []int{16, 5}},        // added first, then context, all in hunks
		{"x := 1", nil},                 // once in the hunks
		{"x := 1\nuse(x)\ndone()", nil}, // once
		{"17|\tdone()", nil},            // file_read numbers say which
	} {
		loc, places := dupResolve(t, c.code)
		if !reflect.DeepEqual(places, c.places) {
			t.Errorf("ResolveAll(%q) places = %v, want %v", c.code, places, c.places)
		}
		if today := Resolve(context.Background(), Query{Path: "dup.go", Code: c.code}, parseChangeSet(t, dupDiff),
			Options{NewFile: func(p string) ([]string, bool) { return dupNew, p == "dup.go" }}); !reflect.DeepEqual(today, loc) {
			t.Errorf("ResolveAll(%q) = %+v, Resolve = %+v; want the same location", c.code, loc, today)
		}
	}
}

func TestFocusResend(t *testing.T) {
	loc, places := dupResolve(t, "done()")
	f, ok := NewFocus("done()", loc, places)
	if !ok || loc.StartLine != 6 {
		t.Fatalf("NewFocus(%+v, %v) = %v; want a focus held at 6", loc, places, ok)
	}
	for _, c := range []struct {
		name, code string
		match      bool
		line       int
		cands      []int
	}{
		{"line first, then the one after", "\tdone()\n}\n\nfunc B() {", true, 6, nil},
		{"the other place, line last", "x := 1\nuse(x)\ndone()", true, 17, nil},
		{"a re-send that is ambiguous itself", "use(x)\n\tdone()\n}", true, 6, []int{17}},
		{"markers and indentation", "+\tx := 1\n+\tuse(x)\n+\tdone()", true, 17, nil},
		{"same quote again: still both", "done()", true, 6, []int{17}},
		{"does not contain the quote", "use(x)\n}", false, 0, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			again, ap := dupResolve(t, c.code)
			if got := f.Matches(c.code, again, ap); got != c.match {
				t.Fatalf("Matches = %v, want %v (placed %+v, places %v)", got, c.match, again, ap)
			}
			if !c.match {
				return
			}
			got, _, ok := f.Refine(again, ap)
			if !ok || got.StartLine != c.line || got.EndLine != c.line || !reflect.DeepEqual(got.Candidates, c.cands) {
				t.Errorf("Refine = %+v, %v; want line %d, candidates %v", got, ok, c.line, c.cands)
			}
		})
	}
}

func TestFocusOtherPathOrSide(t *testing.T) {
	loc, places := dupResolve(t, "done()")
	f, _ := NewFocus("done()", loc, places)
	again, ap := dupResolve(t, "done()\n}")
	other := again
	other.Path = "other.go"
	if f.Matches("done()\n}", other, ap) || f.Quoted("other.go", "done()\n}") {
		t.Error("a comment on another file matched")
	}
	old := again
	old.Side = review.SideOld
	if f.Matches("done()\n}", old, ap) {
		t.Error("a comment on the old side matched a new-side focus")
	}
	if !f.Quoted("dup.go", "use(x)\ndone()") {
		t.Error("Quoted: a longer quote holding the focus quote on the same path is quoted")
	}
}

func TestNewFocusNeedsSeveralPlaces(t *testing.T) {
	loc, places := dupResolve(t, "x := 1")
	if _, ok := NewFocus("x := 1", loc, places); ok {
		t.Error("a quote found once made a focus")
	}
	if _, ok := NewFocus("x", review.Location{Path: "dup.go"}, []int{1, 2}); ok {
		t.Error("a file-level location made a focus")
	}
}

func TestContainsQuote(t *testing.T) {
	for _, c := range []struct {
		outer, inner string
		want         bool
	}{
		{"a\n  b  \nc", "b", true},
		{"a\n\nb", "a\nb", true},        // blank lines ignored
		{"+a\n+b", "b", true},           // markers dropped
		{"+\n+func f() {", "+", true},   // a line that is only a marker
		{"a\nb", "b\na", false},         // order
		{"a\nb", "", false},             // empty
		{"return nil", "return", false}, // whole lines only
	} {
		if got := containsQuote(c.outer, c.inner); got != c.want {
			t.Errorf("containsQuote(%q, %q) = %v, want %v", c.outer, c.inner, got, c.want)
		}
	}
}
