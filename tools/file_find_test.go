package tools

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// naiveFind is the spec's two-pass matching, written plainly.
func naiveFind(files []string, q string, sensitive bool) []string {
	norm := func(s string) string {
		if sensitive {
			return s
		}
		return strings.ToLower(s)
	}
	q = norm(q)
	var out []string
	for _, baseOnly := range []bool{true, false} {
		for _, f := range files {
			if !findable(f) {
				continue
			}
			h := norm(f)
			if baseOnly {
				h = norm(f[strings.LastIndexByte(f, '/')+1:])
			}
			if strings.Contains(h, q) && len(out) < findMaxResults {
				out = append(out, f)
			}
		}
		if len(out) > 0 {
			return out
		}
	}
	return nil
}

// TestFindAgreesWithNaive checks the indexed search against naiveFind.
func TestFindAgreesWithNaive(t *testing.T) {
	var files []string
	for i := 0; i < 300; i++ {
		files = append(files, fmt.Sprintf("Src/pkg%d/Handler%d.go", i%7, i), fmt.Sprintf("docs/handler/x%d.MD", i))
	}
	files = append(files, "Makefile", "README", "a/Dockerfile", "ÜBER/straße.go", "pkg/util/x.go", "x/pkg/y.go")
	ix := newFileIndex(files)
	for _, q := range []string{"handler", "Handler1", "pkg/", "/", "src/pkg3/handler1", "go", ".md", "make", "readme",
		"file", "ü", "straße", "STRASSE", "über/", "x", "zzz", "pkg/util", "r1.go\nx", "ÜBER", "Ü", "r12", "R12.GO", "e/x1"} {
		for _, sensitive := range []bool{false, true} {
			got := ix.search(q, sensitive)
			if want := naiveFind(files, q, sensitive); !slices.Equal(got, want) {
				t.Errorf("find(%q, %t) = %d paths %.3q…, want %d %.3q…", q, sensitive, len(got), got, len(want), want)
			}
		}
	}
}
