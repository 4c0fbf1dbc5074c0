package main

import (
	"testing"

	"github.com/ocr-ci/ocr/anchor/udiff"
)

// TestNaive checks the baseline against behaviours verified on OCR v1.12.4
// (reference/ocr.md §5): old-side matches leak old numbers, a snippet that
// spans a blank line only matches in the whole-file scan, first match wins.
func TestNaive(t *testing.T) {
	files, err := udiff.Parse([]byte(`diff --git a/m.go b/m.go
--- a/m.go
+++ b/m.go
@@ -1,7 +1,8 @@
 package m
 
 func Add(a, b int) int {
-	println("hi")
+
+	return a + b
 }
 
 func x() { _ = 1 }
`))
	if err != nil {
		t.Fatal(err)
	}
	newFile := []string{"package m", "", "func Add(a, b int) int {", "", "\treturn a + b", "}", "", "func x() { _ = 1 }"}
	for _, c := range []struct {
		code string
		want naiveResult
	}{
		{`println("hi")`, naiveResult{start: 4, end: 4, oldSide: true}},
		{"func Add(a, b int) int {\n\n\treturn a + b", naiveResult{start: 3, end: 5}},
		{"+\treturn a + b", naiveResult{start: 5, end: 5}},
		{"}", naiveResult{start: 6, end: 6}},
		{"nowhere", naiveResult{}},
	} {
		if got := naive(&files[0], newFile, c.code); got != c.want {
			t.Errorf("naive(%q) = %+v, want %+v", c.code, got, c.want)
		}
	}
}
