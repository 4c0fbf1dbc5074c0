package anchor

import (
	"context"
	"testing"
)

func TestResolveFuzzy(t *testing.T) {
	runResolveCases(t, []resolveCase{
		{"one word changed", Query{Path: "calc.go", Code: `return 0, fmt.Errorf("division by zero")`}, "calc.go new 24-24 in fuzzy"},
		{"old side", Query{Path: "calc.go", Code: "func Div(a, b int) int64 {"}, "calc.go old 21-21 in fuzzy"},
		{"two lines remembered loosely", Query{Path: "calc.go", Code: "if b == 0 {\n\treturn 0, fmt.Errorf(\"cannot divide by zero\")"}, "calc.go new 23-24 in fuzzy"},
		{"whole file", Query{Path: "calc.go", Code: "func Print(x int) {\n\tfmt.Printf(x)"}, "calc.go new 30-31 out fuzzy"},
		{"too different", Query{Path: "calc.go", Code: `return 1, errors.New("bad input given")`}, "calc.go file file_level"},
		{"too short to judge", Query{Path: "calc.go", Code: "return a * c"}, "calc.go file file_level"},
		{"never across files", Query{Path: "README.md", Code: `return 0, fmt.Errorf("division by zero")`}, "README.md file file_level"},
	})
}

func TestResolveNoFuzzy(t *testing.T) {
	fx := loadResolveFixture(t, "multi")
	opt := fx.options()
	opt.NoFuzzy = true
	loc := Resolve(context.Background(), Query{Path: "calc.go", Code: `return 0, fmt.Errorf("division by zero")`}, fx.cs, opt)
	if got, want := describeLoc(loc), "calc.go file file_level"; got != want {
		t.Errorf("NoFuzzy: %s, want %s", got, want)
	}
}

func TestLCS(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"a b c d", "a b c d", 4},
		{"a b c d", "a x c d", 3},
		{"a b c", "c b a", 1},
		{"", "a", 0},
	} {
		got := lcs(tokens(c.a), [][]string{tokens(c.b)})
		if got != c.want {
			t.Errorf("lcs(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

func TestTokens(t *testing.T) {
	got := tokens(`x := fmt.Errorf("a %w", err_1)`)
	want := []string{"x", ":", "=", "fmt", ".", "Errorf", "(", `"`, "a", "%", "w", `"`, ",", "err_1", ")"}
	if len(got) != len(want) {
		t.Fatalf("tokens = %q, want %q", got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("tokens = %q, want %q", got, want)
		}
	}
}
