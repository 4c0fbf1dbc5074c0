package review

import "testing"

func TestDismissalLike(t *testing.T) {
	dismissed := Comment{Location: Location{Path: "svc/calc.go", Side: SideNew, StartLine: 10, EndLine: 11},
		Category: CategoryBug, Content: "Division by zero when the divisor b is zero; check b before dividing.",
		ExistingCode: "if ok {\n\treturn a / b\n}"}
	d := Dismissal{Finding: dismissed, By: "alice"}
	at := func(start int, code, text string) Comment {
		c := dismissed
		c.StartLine, c.EndLine, c.ExistingCode, c.Content = start, start+1, code, text
		return c
	}
	for _, tc := range []struct {
		name string
		c    Comment
		want bool
	}{
		{"the same", dismissed, true},
		{"reworded, same code", at(10, dismissed.ExistingCode, "Dividing by b panics when b is zero; check it first."), true},
		{"moved copy", at(80, "\treturn a / b", "Division by zero when the divisor b is zero; check b before dividing it."), true},
		{"same words, other code", at(40, "x := c / d", "Division by zero when the divisor b is zero; check b before dividing."), false},
		{"same code, another finding", at(10, dismissed.ExistingCode, "The result overflows int32 for large inputs."), false},
		{"other category", func() Comment { c := dismissed; c.Category = CategoryPerformance; return c }(), false},
		{"other file", func() Comment { c := dismissed; c.Path = "svc/other.go"; return c }(), false},
	} {
		if got := d.Like(tc.c); got != tc.want {
			t.Errorf("%s: Like = %v, want %v", tc.name, got, tc.want)
		}
	}
	if s := d.Suppression(); s.String() != "like one dismissed by @alice" || s.Like != FingerprintOf(dismissed) {
		t.Errorf("Suppression = %+v, %q", s, s.String())
	}
	// Unknown quote: lines decide.
	d.Finding.ExistingCode = ""
	if !d.Like(at(11, "", dismissed.Content)) || d.Like(at(30, "", dismissed.Content)) {
		t.Error("without a quote, overlapping lines should decide")
	}
}
