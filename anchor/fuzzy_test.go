package anchor

import (
	"context"
	"math/rand/v2"
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
		vocab := map[string]int32{}
		id := func(s string) []int32 {
			var out []int32
			for _, t := range tokens(s) {
				if _, ok := vocab[t]; !ok {
					vocab[t] = int32(len(vocab))
				}
				out = append(out, vocab[t])
			}
			return out
		}
		a, b := id(c.a), id(c.b)
		if got := newBitLCS(quoteOf(a, len(vocab))).length([][]int32{b}); got != c.want {
			t.Errorf("lcs(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

// TestBitLCSAgreesWithTable checks the bit-parallel LCS against the
// textbook table on random sequences, across word boundaries (quotes of
// up to 300 tokens: five words, carries between them) and with tokens the
// quote has that the sequence lacks (-1).
func TestBitLCSAgreesWithTable(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 400 {
		vocab := 2 + rng.IntN(12)
		a := make([]int32, rng.IntN(300))
		for i := range a {
			a[i] = int32(rng.IntN(vocab+1)) - 1
		}
		var bs [][]int32
		for range rng.IntN(40) {
			line := make([]int32, rng.IntN(9))
			for i := range line {
				line[i] = int32(rng.IntN(vocab))
			}
			bs = append(bs, line)
		}
		if got, want := bitLCSOf(a, vocab, bs), tableLCS(a, bs); got != want {
			t.Fatalf("bit LCS %d, table %d, for %v and %v", got, want, a, bs)
		}
	}
}

// tableLCS is the textbook LCS of a and the concatenation of bs.
func tableLCS(a []int32, bs [][]int32) int {
	prev := make([]int, len(a)+1)
	cur := make([]int, len(a)+1)
	for _, b := range bs {
		for _, t := range b {
			for i := range a {
				if a[i] == t {
					cur[i+1] = prev[i] + 1
				} else {
					cur[i+1] = max(cur[i], prev[i+1])
				}
			}
			prev, cur = cur, prev
		}
	}
	return prev[len(a)]
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

// bitLCSOf is the bit-parallel LCS of a and bs (a is copied: quoteOf
// rewrites it).
func bitLCSOf(a []int32, vocab int, bs [][]int32) int {
	return newBitLCS(quoteOf(append([]int32(nil), a...), vocab)).length(bs)
}
