package tools

import "testing"

func TestPlacedText(t *testing.T) {
	for _, c := range []struct {
		name string
		ps   []Placement
		want string
	}{
		{"one placed", []Placement{{Path: "a.go", Side: "new", StartLine: 5, EndLine: 5}},
			"Successfully commented: placed at a.go:5 (new side)."},
		{"a range on the old side, replacing", []Placement{{Path: "a.go", Side: "old", StartLine: 5, EndLine: 7, Replaced: true}},
			"Successfully commented: placed at a.go:5-7 (old side), replacing the ambiguous one."},
		{"file-level and later", []Placement{{Path: "a.go"}, {Path: "b.go", Later: true}},
			"Successfully commented.\n1. a.go (file-level)\n2. b.go: quote not found in the diff as sent; it will be located separately"},
		{"ambiguous, not chosen", []Placement{{Path: "a.go", Side: "new", StartLine: 12, EndLine: 12}, {Path: "a.go", Side: "new", StartLine: 40, EndLine: 40, Also: []int{40, 12, 88}}},
			"Successfully commented.\n1. placed at a.go:12 (new side)\n2. placed at a.go:40 (new side); the quote matches lines 12, 40, 88, it stays at 40, the best-ranked, marked ambiguous"},
		{"many lines are cut", []Placement{{Path: "a.go", Side: "new", StartLine: 1, EndLine: 1, Also: []int{1, 2, 3, 4, 5, 6, 7, 8}}},
			"Successfully commented: placed at a.go:1 (new side); the quote matches lines 1, 2, 3, 4, 5, 6, and 2 more, it stays at 1, the best-ranked, marked ambiguous."},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := PlacedText(c.ps); got != c.want {
				t.Errorf("PlacedText =\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}

func TestPlacedTextDoesNotReorderLines(t *testing.T) {
	lines := []int{40, 12}
	PlacedText([]Placement{{Path: "a.go", Side: "new", StartLine: 40, EndLine: 40, Also: lines}})
	if lines[0] != 40 {
		t.Errorf("PlacedText sorted the caller's slice: %v", lines)
	}
}
