package review

import (
	"fmt"
	"slices"
	"testing"
)

func TestCap(t *testing.T) {
	in := []Comment{
		at("b.go", 5, 5, CategoryBug, SeverityLow, "b5 low"),
		at("a.go", 9, 9, CategoryBug, SeverityHigh, "a9 high"),
		at("a.go", 3, 3, CategoryBug, SeverityMedium, "a3 medium"),
		at("a.go", 1, 1, CategoryBug, SeverityLow, "a1 low"),
		at("b.go", 2, 2, CategoryBug, SeverityCritical, "b2 critical"),
		at("a.go", 2, 2, CategoryBug, SeverityHigh, "a2 high"),
	}
	orig := slices.Clone(in)
	cases := []struct {
		perFile, perRun int
		want            []string
		dropped         int
	}{
		{0, 0, []string{"b2 critical", "a2 high", "a9 high", "a3 medium", "a1 low", "b5 low"}, 0},
		{2, 0, []string{"b2 critical", "a2 high", "a9 high", "b5 low"}, 2},
		{0, 3, []string{"b2 critical", "a2 high", "a9 high"}, 3},
		{1, 1, []string{"b2 critical"}, 5},
		{-1, 10, []string{"b2 critical", "a2 high", "a9 high", "a3 medium", "a1 low", "b5 low"}, 0},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%d/%d", c.perFile, c.perRun), func(t *testing.T) {
			kept, dropped := Cap(in, c.perFile, c.perRun)
			var got []string
			for _, k := range kept {
				got = append(got, k.Content)
			}
			if !slices.Equal(got, c.want) || dropped != c.dropped {
				t.Errorf("Cap = %q dropped %d, want %q dropped %d", got, dropped, c.want, c.dropped)
			}
			if len(kept)+dropped != len(in) {
				t.Errorf("kept %d + dropped %d != %d", len(kept), dropped, len(in))
			}
		})
	}
	if !slices.EqualFunc(in, orig, func(a, b Comment) bool { return a.Content == b.Content }) {
		t.Error("Cap modified its input")
	}
}

func TestSortBySeverityIsStable(t *testing.T) {
	cs := []Comment{at("a.go", 1, 1, CategoryBug, SeverityLow, "first"), at("a.go", 1, 1, CategoryBug, SeverityLow, "second"),
		at("a.go", 1, 1, CategoryBug, SeverityHigh, "top")}
	SortBySeverity(cs)
	if cs[0].Content != "top" || cs[1].Content != "first" || cs[2].Content != "second" {
		t.Errorf("SortBySeverity = %q %q %q", cs[0].Content, cs[1].Content, cs[2].Content)
	}
}
