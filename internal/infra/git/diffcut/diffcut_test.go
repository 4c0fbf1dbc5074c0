package diffcut

import (
	"bufio"
	"strings"
	"testing"
)

const twoFiles = `diff --git a/a.txt b/a.txt
index 1111111..2222222 100644
--- a/a.txt
+++ b/a.txt
@@ -1 +1,2 @@
-old
+new
+more
diff --git a/b.bin b/b.bin
index 3333333..4444444 100644
Binary files a/b.bin and b/b.bin differ
`

// TestKeepCutsOverBudget: a budget that fits only the second file keeps it
// whole and cuts the first to its header, with its line counts.
func TestKeepCutsOverBudget(t *testing.T) {
	secs, err := Scan(bufio.NewReaderSize(strings.NewReader(twoFiles), 16))
	if err != nil {
		t.Fatal(err)
	}
	if len(secs) != 2 {
		t.Fatalf("Scan found %d sections, want 2", len(secs))
	}
	_, rest, _ := strings.Cut(twoFiles, "\ndiff --git a/b.bin")
	second := "diff --git a/b.bin" + rest
	budget := int64(len(second) + 3*LineCost)
	text, cuts, err := Keep(strings.NewReader(twoFiles), secs, budget)
	if err != nil {
		t.Fatal(err)
	}
	header := "diff --git a/a.txt b/a.txt\nindex 1111111..2222222 100644\n"
	if text != header+second {
		t.Errorf("Keep text = %q, want %q", text, header+second)
	}
	first := int64(len(twoFiles) - len(second))
	want := Cut{Index: 0, Additions: 2, Deletions: 1, Bytes: first}
	if len(cuts) != 1 || cuts[0] != want {
		t.Errorf("cuts = %+v, want [%+v]", cuts, want)
	}
	if all, cuts, _ := Keep(strings.NewReader(twoFiles), secs, 1<<20); all != twoFiles || cuts != nil {
		t.Errorf("with room for everything Keep = %q, %v; want the whole diff", all, cuts)
	}
}
