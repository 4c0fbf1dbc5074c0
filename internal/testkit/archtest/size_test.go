package archtest

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// maxPackageLines is the most non-test lines of Go a package may hold
// (docs/architecture.md, "House style"): past it, split the package.
const maxPackageLines = 2500

// TestPackagesStaySmall fails for each package of the module with more
// than maxPackageLines lines in its non-test .go files.
func TestPackagesStaySmall(t *testing.T) {
	for _, p := range listPackages(t) {
		name := rel(p.ImportPath)
		n := goLines(t, p.Dir)
		if n > maxPackageLines {
			t.Errorf("package %s has %d non-test lines of Go, more than %d: split it into packages with one job each", name, n, maxPackageLines)
		}
	}
}

// goLines counts the lines of the non-test .go files in dir (as wc -l),
// whatever their build constraints.
func goLines(t *testing.T, dir string) int {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		n += bytes.Count(data, []byte("\n"))
	}
	return n
}

// TestGoLinesCounts: the counter sees non-test lines only, so the size
// test above measures what it claims.
func TestGoLinesCounts(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"a.go": "package a\n\nfunc A() {}\n", "b.go": "package a\n", "a_test.go": "package a\n\n\n\n",
		"notes.txt": "x\ny\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if got := goLines(t, dir); got != 4 {
		t.Errorf("goLines = %d, want 4 (a.go 3 + b.go 1)", got)
	}
}
