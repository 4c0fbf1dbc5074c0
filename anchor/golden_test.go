package anchor

import (
	"flag"
	"os"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// checkGolden compares got with the golden file, rewriting it under the
// package's -update flag.
func checkGolden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		test, _, _ := strings.Cut(t.Name(), "/")
		t.Fatalf("%v (run go test ./anchor -run %s -update)", err, test)
	}
	if got != string(want) {
		t.Errorf("%s differs (rerun with -update and review the change):\n--- got\n%s--- want\n%s", path, got, want)
	}
}
