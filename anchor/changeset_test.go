package anchor

import (
	"context"
	"sync"
	"testing"

	"github.com/ocr-ci/ocr/anchor/udiff"
	"github.com/ocr-ci/ocr/review"
)

func TestChangeSetFile(t *testing.T) {
	fx := loadResolveFixture(t, "multi")
	if got := len(fx.cs.Files()); got != 4 {
		t.Fatalf("Files() has %d files, want 4", got)
	}
	for path, want := range map[string]string{"calc.go": "calc.go", "release.go": "release.go", "version.go": "release.go"} {
		f, ok := fx.cs.File(path)
		if !ok || f.Path() != want {
			t.Errorf("File(%q) = %v, %v; want %s", path, f, ok, want)
		}
	}
	if f, ok := fx.cs.File("missing.go"); ok {
		t.Errorf("File(missing.go) = %v", f)
	}
}

func TestChangeSetInHunk(t *testing.T) {
	fx := loadResolveFixture(t, "multi")
	for _, c := range []struct {
		side       review.Side
		start, end int
		want       bool
	}{
		{review.SideNew, 3, 10, true},  // all of the first hunk
		{review.SideNew, 7, 7, true},   // one added line
		{review.SideNew, 9, 11, false}, // runs past the end of the hunk
		{review.SideNew, 2, 3, false},  // starts before it
		{review.SideNew, 8, 20, false}, // crosses from one hunk to the next
		{review.SideNew, 19, 30, true}, // all of the second hunk
		{review.SideNew, 31, 31, false},
		{review.SideOld, 6, 6, true}, // the deleted line
		{review.SideOld, 9, 10, false},
		{review.SideOld, 18, 25, true},
		{review.SideNone, 7, 7, false},
		{review.SideNew, 7, 6, false}, // empty range
		{review.SideNew, 0, 3, false},
	} {
		if got := fx.cs.InHunk("calc.go", c.side, c.start, c.end); got != c.want {
			t.Errorf("InHunk(calc.go, %q, %d, %d) = %v, want %v", c.side, c.start, c.end, got, c.want)
		}
	}
	if fx.cs.InHunk("nowhere.go", review.SideNew, 1, 1) {
		t.Error("InHunk on a file outside the change set")
	}
}

func TestChangeSetLineKind(t *testing.T) {
	fx := loadResolveFixture(t, "multi")
	for _, c := range []struct {
		side review.Side
		line int
		want udiff.LineKind
		ok   bool
	}{
		{review.SideNew, 5, udiff.Context, true},
		{review.SideNew, 6, udiff.Added, true},
		{review.SideNew, 7, udiff.Added, true},
		{review.SideNew, 11, 0, false},
		{review.SideOld, 6, udiff.Deleted, true},
		{review.SideOld, 7, udiff.Context, true},
		{review.SideOld, 21, udiff.Deleted, true},
		{review.SideNew, 26, udiff.Added, true}, // an added blank line
	} {
		got, ok := fx.cs.LineKind("calc.go", c.side, c.line)
		if got != c.want || ok != c.ok {
			t.Errorf("LineKind(calc.go, %q, %d) = %q, %v; want %q, %v", c.side, c.line, got, ok, c.want, c.ok)
		}
	}
}

// TestChangeSetAddedAndDeletedFiles checks files that exist on one side only.
func TestChangeSetAddedAndDeletedFiles(t *testing.T) {
	cs := parseChangeSet(t, `diff --git a/gone.go b/gone.go
deleted file mode 100644
--- a/gone.go
+++ /dev/null
@@ -1,2 +0,0 @@
-package gone
-func Old() {}
diff --git a/new.go b/new.go
new file mode 100644
--- /dev/null
+++ b/new.go
@@ -0,0 +1,2 @@
+package fresh
+func New() {}
`)
	ctx := context.Background()
	opt := Options{NoFuzzy: true, NewFile: func(p string) ([]string, bool) {
		if p == "gone.go" {
			t.Error("NewFile asked for a deleted file")
		}
		return []string{"package fresh", "func New() {}"}, p == "new.go"
	}}
	for _, c := range []struct{ path, code, want string }{
		{"gone.go", "func Old() {}", "gone.go old 2-2 in hunk_old"},
		{"new.go", "func New() {}", "new.go new 2-2 in hunk_new"},
		{"gone.go", "func New() {}", "new.go new 2-2 in other_file"},
		{"gone.go", "package nothing", "gone.go file file_level"},
	} {
		if got := describeLoc(Resolve(ctx, Query{Path: c.path, Code: c.code}, cs, opt)); got != c.want {
			t.Errorf("Resolve(%s, %q) = %s, want %s", c.path, c.code, got, c.want)
		}
	}
	if !cs.InHunk("gone.go", review.SideOld, 1, 2) || cs.InHunk("gone.go", review.SideNew, 1, 1) {
		t.Error("InHunk on a deleted file")
	}
}

// TestResolveConcurrent shares one ChangeSet between goroutines, as the
// agent's worker pool does; run with -race.
func TestResolveConcurrent(t *testing.T) {
	fx := loadResolveFixture(t, "multi")
	opt := Options{NoFuzzy: true, NewFile: func(p string) ([]string, bool) { l, ok := fx.files[p]; return l, ok }}
	queries := []Query{
		{Path: "calc.go", Code: "return a + b"},
		{Path: "calc.go", Code: "func Print(x int) {"},
		{Path: "ci.yaml", Code: "- lint"},
		{Path: "README.md", Code: "- div"},
		{Path: "calc.go", Code: `const Version = "1.0"`},
		{Path: "calc.go", Code: `return 0, fmt.Errorf("division by zero")`},
	}
	want := make([]string, len(queries))
	for i, q := range queries {
		want[i] = describeLoc(Resolve(context.Background(), q, loadResolveFixture(t, "multi").cs, opt))
	}
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range queries {
				q := queries[(i+g)%len(queries)]
				if got := describeLoc(Resolve(context.Background(), q, fx.cs, opt)); got != want[(i+g)%len(queries)] {
					t.Errorf("concurrent Resolve(%q) = %s, want %s", q.Code, got, want[(i+g)%len(queries)])
				}
			}
		}()
	}
	wg.Wait()
}
