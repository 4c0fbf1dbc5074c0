package udiff

import (
	"fmt"
	"strings"
	"testing"
)

// bigDiff generates a diff of files files, each with two hunks of 3 lines of
// context around changed/2 deleted and changed/2 added lines.
func bigDiff(files, changed int) []byte {
	var b strings.Builder
	half := changed / 4 // per hunk and side
	for i := 0; i < files; i++ {
		name := fmt.Sprintf("pkg%03d/file_%05d.go", i%100, i)
		fmt.Fprintf(&b, "diff --git a/%s b/%s\nindex 1234567..89abcde 100644\n--- a/%s\n+++ b/%s\n", name, name, name, name)
		for h, start := range []int{10, 200} {
			fmt.Fprintf(&b, "@@ -%d,%d +%d,%d @@ func f%d() {\n", start, half+6, start, half+6, h)
			for c := 0; c < 3; c++ {
				fmt.Fprintf(&b, " \tcontext := %d // unchanged line\n", c)
			}
			for d := 0; d < half; d++ {
				fmt.Fprintf(&b, "-\tvalue%d := compute(%d, \"old\")\n", d, d)
			}
			for a := 0; a < half; a++ {
				fmt.Fprintf(&b, "+\tvalue%d := compute(%d, \"new\", extra)\n", a, a)
			}
			for c := 0; c < 3; c++ {
				fmt.Fprintf(&b, " \treturn %d // unchanged line\n", c)
			}
		}
	}
	return []byte(b.String())
}

// TestBigDiff checks the benchmark input parses to what it was built from.
func TestBigDiff(t *testing.T) {
	files, err := Parse(bigDiff(50, 40))
	if err != nil {
		t.Fatal(err)
	}
	adds, dels := 0, 0
	for _, f := range files {
		adds, dels = adds+f.Additions, dels+f.Deletions
	}
	if len(files) != 50 || adds != 1000 || dels != 1000 {
		t.Fatalf("got %d files +%d -%d; want 50 files +1000 -1000", len(files), adds, dels)
	}
}

// BenchmarkParse parses a diff of 5,000 files and 200,000 changed lines.
func BenchmarkParse(b *testing.B) {
	diff := bigDiff(5000, 40)
	b.SetBytes(int64(len(diff)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(diff); err != nil {
			b.Fatal(err)
		}
	}
}
