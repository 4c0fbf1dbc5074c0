package tools

import (
	"os"
	"path/filepath"
	"testing"

	goldenfile "github.com/ocr-ci/ocr/internal/testkit/golden"
)

// TestMain keeps the user's and the system's git configuration out of the
// tests: only what the tests set applies.
func TestMain(m *testing.M) {
	for k, v := range map[string]string{"GIT_CONFIG_GLOBAL": os.DevNull, "GIT_CONFIG_NOSYSTEM": "1"} {
		if err := os.Setenv(k, v); err != nil {
			panic(err)
		}
	}
	code := m.Run()
	cleanBench()
	os.Exit(code)
}

// golden compares got with testdata/<name>.golden, or rewrites it.
func golden(t *testing.T, name, got string) {
	t.Helper()
	goldenfile.CheckString(t, filepath.Join("testdata", name+".golden"), got)
}
