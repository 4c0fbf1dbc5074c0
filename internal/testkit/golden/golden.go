// Package golden is the test kit's one golden-file helper: tests compare
// what they produce with a file under testdata, and `go test -update`
// rewrites the files instead (check the diff before committing).
package golden

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// update is the one -update flag of every package that compares goldens.
var update = flag.Bool("update", false, "rewrite the golden files instead of comparing with them")

// Update reports whether the run rewrites the golden files.
func Update() bool { return *update }

// Check compares got with the golden file at path; under -update it
// writes got there (creating the directory) instead.
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		test, _, _ := strings.Cut(t.Name(), "/")
		t.Fatalf("%v (run go test -run %s -update in this package to write it, then check the diff)", err, test)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (run go test -update after checking):\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// CheckString is Check for text.
func CheckString(t testing.TB, path, got string) {
	t.Helper()
	Check(t, path, []byte(got))
}
