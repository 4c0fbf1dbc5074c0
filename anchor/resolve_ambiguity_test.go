package anchor

import (
	"context"
	"testing"
)

const dupDiff = `diff --git a/dup.go b/dup.go
index 46c3a9f..ebc33d5 100644
--- a/dup.go
+++ b/dup.go
@@ -5,2 +5,3 @@ func A() {
 	use(x)
+	done()
 }
@@ -13,3 +14,5 @@ func B() {
 func C() {
-	use(0)
+	x := 1
+	use(x)
+	done()
 }
`

var dupNew = fileLines("package dup\n\nfunc A() {\n\tx := 1\n\tuse(x)\n\tdone()\n}\n\nfunc B() {\n\tx := 1\n\tuse(x)\n}\n\nfunc C() {\n\tx := 1\n\tuse(x)\n\tdone()\n}\n")

func TestResolveAmbiguity(t *testing.T) {
	cs := parseChangeSet(t, dupDiff)
	opt := Options{NewFile: func(p string) ([]string, bool) { return dupNew, p == "dup.go" }}
	for _, c := range []struct {
		name string
		q    Query
		want string
	}{
		{"inside hunks beats outside", Query{Code: "x := 1"}, "dup.go new 15-15 in hunk_new"},
		{"inside hunks beats a hint outside", Query{Code: "x := 1", LineHint: 4}, "dup.go new 15-15 in hunk_new"},
		{"added beats context", Query{Code: "use(x)"}, "dup.go new 16-16 in hunk_new"},
		{"hint beats added", Query{Code: "use(x)", LineHint: 5}, "dup.go new 5-5 in hunk_new"},
		{"equal matches are reported", Query{Code: "done()"}, "dup.go new 6-6 in hunk_new [17]"},
		{"hint picks one of equals", Query{Code: "done()", LineHint: 17}, "dup.go new 17-17 in hunk_new"},
		{"nearest hint wins", Query{Code: "done()", LineHint: 12}, "dup.go new 17-17 in hunk_new"},
		{"hint from file_read numbers", Query{Code: "17|\tdone()"}, "dup.go new 17-17 in hunk_new"},
		{"explicit hint beats file_read numbers", Query{Code: "17|\tdone()", LineHint: 6}, "dup.go new 6-6 in hunk_new"},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.q.Path = "dup.go"
			if got := describeLoc(Resolve(context.Background(), c.q, cs, opt)); got != c.want {
				t.Errorf("Resolve(%q, hint %d) = %s, want %s", c.q.Code, c.q.LineHint, got, c.want)
			}
		})
	}
}

func TestResolveAmbiguityWholeFile(t *testing.T) {
	runResolveCases(t, []resolveCase{
		{"first of equals, others listed", Query{Path: "calc.go", Code: "if a == 0 {\n\treturn 0\n}"}, "calc.go new 16-18 out whole_file [35]"},
		{"hint", Query{Path: "calc.go", Code: "if a == 0 {\n\treturn 0\n}", LineHint: 33}, "calc.go new 35-37 out whole_file"},
	})
}

func TestResolveOtherFilesAmbiguous(t *testing.T) {
	diff := `diff --git a/a.txt b/a.txt
--- a/a.txt
+++ b/a.txt
@@ -1 +1 @@
-one
+shared line
diff --git a/b.txt b/b.txt
--- a/b.txt
+++ b/b.txt
@@ -1 +1 @@
-two
+shared line
diff --git a/c.txt b/c.txt
--- a/c.txt
+++ b/c.txt
@@ -1 +1 @@
-three
+only here
`
	cs := parseChangeSet(t, diff)
	ctx := context.Background()
	if got := describeLoc(Resolve(ctx, Query{Path: "c.txt", Code: "shared line"}, cs, Options{NoFuzzy: true})); got != "c.txt file file_level" {
		t.Errorf("two other files match: %s, want file level on c.txt", got)
	}
	if got := describeLoc(Resolve(ctx, Query{Path: "c.txt", Code: "two"}, cs, Options{})); got != "b.txt old 1-1 in other_file" {
		t.Errorf("one other file matches: %s", got)
	}
	if got := describeLoc(Resolve(ctx, Query{Path: "a.txt", Code: "shared line"}, cs, Options{})); got != "a.txt new 1-1 in hunk_new" {
		t.Errorf("own file first: %s", got)
	}
}

// A line whose own text starts with "-" or "+" (or looks like file_read
// output, "1|...") must match itself before any marker or prefix is
// stripped.
func TestResolveLiteralBeforeMarker(t *testing.T) {
	diff := `diff --git a/list.md b/list.md
--- a/list.md
+++ b/list.md
@@ -1,3 +1,4 @@
 item
+- item
 other
 - other
diff --git a/stub.py b/stub.py
--- a/stub.py
+++ b/stub.py
@@ -1,2 +1,4 @@
 class P(Protocol):
-    def f(self): pass
+    def f(self):
+        ...
+    def g(self): pass
diff --git a/read.golden b/read.golden
new file mode 100644
--- /dev/null
+++ b/read.golden
@@ -0,0 +1,4 @@
+1|line 1
+2|line 2
+line 1
+line 2
`
	cs := parseChangeSet(t, diff)
	for _, c := range []struct{ path, code, want string }{
		{"list.md", "- item", "list.md new 2-2 in hunk_new"},
		{"list.md", "+- item", "list.md new 2-2 in hunk_new"},
		{"list.md", "- other", "list.md new 4-4 in hunk_new"},
		{"list.md", "item\n- item", "list.md new 1-2 in hunk_new"},
		{"stub.py", "def f(self):\n    ...", "stub.py new 2-3 in hunk_new"},
		{"stub.py", "class P(Protocol):\n    ...\n    def g(self): pass", "stub.py new 1-4 in hunk_new"},
		{"read.golden", "1|line 1\n2|line 2", "read.golden new 1-2 in hunk_new"},
		{"read.golden", "3|line 1\n4|line 2", "read.golden new 3-4 in hunk_new"},
	} {
		if got := describeLoc(Resolve(context.Background(), Query{Path: c.path, Code: c.code}, cs, Options{})); got != c.want {
			t.Errorf("Resolve(%q) = %s, want %s", c.code, got, c.want)
		}
	}
}

// A diff-like text (a diff in testdata) quoted with a partial first line
// keeps its "---"/"+++" lines as text.
func TestResolveDiffText(t *testing.T) {
	cs := parseChangeSet(t, `diff --git a/t.diff b/t.diff
new file mode 100644
--- /dev/null
+++ b/t.diff
@@ -0,0 +1,4 @@
+diff --git a/x b/x
+what is this
+--- a/x
++++ b/x
`)
	loc := Resolve(context.Background(), Query{Path: "t.diff", Code: "--git a/x b/x\nwhat is this\n--- a/x\n+++ b/x"}, cs, Options{})
	if got, want := describeLoc(loc), "t.diff new 1-4 in hunk_new"; got != want {
		t.Errorf("Resolve = %s, want %s", got, want)
	}
}

// "-    go: $t2" is a deleted line quoted with its marker; "- go: $t2" is a
// YAML list item, which outside the hunks is found in the whole file.
func TestResolveMarkerOrListItem(t *testing.T) {
	cs := parseChangeSet(t, `diff --git a/w.yaml b/w.yaml
--- a/w.yaml
+++ b/w.yaml
@@ -1,3 +1,3 @@
 ops:
-    go: $t2
+    go: $t3
   x: 1
diff --git a/Dockerfile b/Dockerfile
--- a/Dockerfile
+++ b/Dockerfile
@@ -1,4 +1,4 @@
 RUN apt-get update \
- && git config --system x \
  && echo done \
+ && git config --system x \
  && true
`)
	lines := []string{"ops:", "    go: $t3", "  x: 1", "", "list:", "  - go: $t2"}
	opt := Options{NewFile: func(p string) ([]string, bool) { return lines, p == "w.yaml" }}
	// A line moved within the hunk, its text indented by one space: the
	// marker says which side.
	for code, want := range map[string]string{
		"- && git config --system x \\": "Dockerfile old 2-2 in hunk_old",
		"+ && git config --system x \\": "Dockerfile new 3-3 in hunk_new",
	} {
		if got := describeLoc(Resolve(context.Background(), Query{Path: "Dockerfile", Code: code}, cs, opt)); got != want {
			t.Errorf("Resolve(%q) = %s, want %s", code, got, want)
		}
	}
	for code, want := range map[string]string{
		"-    go: $t2": "w.yaml old 2-2 in hunk_old",
		"  - go: $t2":  "w.yaml new 6-6 out whole_file",
		"- go: $t2":    "w.yaml new 6-6 out whole_file",
		"+    go: $t3": "w.yaml new 2-2 in hunk_new",
	} {
		if got := describeLoc(Resolve(context.Background(), Query{Path: "w.yaml", Code: code}, cs, opt)); got != want {
			t.Errorf("Resolve(%q) = %s, want %s", code, got, want)
		}
	}
}
