package anchor

import (
	"testing"

	"github.com/ocr-ci/ocr/review"
)

// Text gives the file's own lines at a location: from the hunks of its
// side, else from the whole new file; nothing for a file-level location
// or lines no source holds.
func TestChangeSetText(t *testing.T) {
	cs := parseChangeSet(t, "diff --git a/a.go b/a.go\n--- a/a.go\n+++ b/a.go\n@@ -2,3 +2,3 @@\n ctx\r\n-old(x)\n+new( x )\n tail\n")
	whole := []string{"head", "ctx\r", "new( x )", "tail", "after"}
	loc := func(side review.Side, start, end int) review.Location {
		return review.Location{Path: "a.go", Side: side, StartLine: start, EndLine: end}
	}
	for _, tc := range []struct {
		name string
		loc  review.Location
		want string
		ok   bool
	}{
		{"new side in the hunk, CR dropped", loc(review.SideNew, 2, 3), "ctx\nnew( x )", true},
		{"old side", loc(review.SideOld, 3, 4), "old(x)\ntail", true},
		{"new side past the hunk: the whole file", loc(review.SideNew, 4, 5), "tail\nafter", true},
		{"old side past the hunk: unknown", loc(review.SideOld, 4, 5), "", false},
		{"past the end of the file", loc(review.SideNew, 5, 6), "", false},
		{"file level", review.Location{Path: "a.go"}, "", false},
		{"another file", review.Location{Path: "b.go", Side: review.SideNew, StartLine: 1, EndLine: 1}, "", false},
	} {
		got, ok := cs.Text(tc.loc, whole)
		if got != tc.want || ok != tc.ok {
			t.Errorf("%s: Text = %q, %v; want %q, %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
}
