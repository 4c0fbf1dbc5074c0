package git

import (
	"context"
	"testing"
)

// TestPatchIDs: the same change on another base keeps its ID (moved
// lines, other context), another change does not, a whitespace-only
// difference does not count (git's --stable rule), and patches are told
// apart in one call.
func TestPatchIDs(t *testing.T) {
	t.Parallel()
	const a = "diff --git a/f.go b/f.go\nindex 1111111..2222222 100644\n--- a/f.go\n+++ b/f.go\n@@ -3,3 +3,3 @@ func F() {\n x := 1\n-y := 2\n+y := 3\n z := 4\n"
	// The same change, 40 lines further down, other index line.
	const moved = "diff --git a/f.go b/f.go\nindex 3333333..4444444 100644\n--- a/f.go\n+++ b/f.go\n@@ -43,3 +43,3 @@ func F() {\n x := 1\n-y := 2\n+y := 3\n z := 4\n"
	const other = "diff --git a/f.go b/f.go\nindex 1111111..5555555 100644\n--- a/f.go\n+++ b/f.go\n@@ -3,3 +3,3 @@ func F() {\n x := 1\n-y := 2\n+y := 4\n z := 4\n"
	const spaced = "diff --git a/f.go b/f.go\nindex 1111111..2222222 100644\n--- a/f.go\n+++ b/f.go\n@@ -3,3 +3,3 @@ func F() {\n x := 1\n-y := 2\n+y  :=  3\n z := 4\n"
	const renamed = "diff --git a/g.go b/g.go\nindex 1111111..2222222 100644\n--- a/g.go\n+++ b/g.go\n@@ -3,3 +3,3 @@ func F() {\n x := 1\n-y := 2\n+y := 3\n z := 4\n"
	r := Plain(t.TempDir(), Options{})
	ids, err := r.PatchIDs(context.Background(), []string{a, moved, other, spaced, renamed, ""})
	if err != nil {
		t.Fatal(err)
	}
	if len(ids) != 6 || ids[0] == "" || len(ids[0]) != 40 {
		t.Fatalf("ids %q", ids)
	}
	if ids[0] != ids[1] || ids[0] != ids[3] {
		t.Errorf("the same change has other IDs: %q", ids[:4])
	}
	if ids[0] == ids[2] || ids[0] == ids[4] {
		t.Errorf("another change (content or path) has the same ID: %q", ids)
	}
	if ids[5] != "" {
		t.Errorf("an empty patch has ID %q, want none", ids[5])
	}
}
