package anchor

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// bigChangeSet is the calc.go diff of the multi fixture repeated in n files.
func bigChangeSet(b *testing.B, n int) (*ChangeSet, Options) {
	raw, err := os.ReadFile(filepath.Join("testdata", "resolve", "multi.diff"))
	if err != nil {
		b.Fatal(err)
	}
	one := string(raw)
	one = one[strings.Index(one, "diff --git a/calc.go"):strings.Index(one, "diff --git a/ci.yaml")]
	var diff strings.Builder
	for i := range n {
		diff.WriteString(strings.ReplaceAll(one, "calc.go", fmt.Sprintf("pkg%d/calc.go", i)))
	}
	cs := parseChangeSet(b, diff.String())
	fx := loadResolveFixture(b, "multi")
	lines := fx.files["calc.go"]
	return cs, Options{NewFile: func(string) ([]string, bool) { return lines, true }}
}

func BenchmarkResolve(b *testing.B) {
	cs, opt := bigChangeSet(b, 200)
	ctx := context.Background()
	for _, c := range []struct{ name, code string }{
		{"added", "\treturn a + b"},
		{"deleted-marker", "-\treturn a - b"},
		{"whole-file", "func Print(x int) {\n\tfmt.Println(x)"},
		{"partial", "b int) (int, error) {\n\tif b == 0 {"},
		{"fuzzy", `return 0, fmt.Errorf("division by zero")`},
		{"unmatched", "this is nowhere at all"},
	} {
		b.Run(c.name, func(b *testing.B) {
			q := Query{Path: "pkg7/calc.go", Code: c.code}
			Resolve(ctx, q, cs, opt) // build the indexes
			for b.Loop() {
				Resolve(ctx, q, cs, opt)
			}
		})
	}
}
