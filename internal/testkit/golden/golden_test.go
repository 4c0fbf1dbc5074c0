package golden

import (
	"os"
	"path/filepath"
	"testing"
)

// recorder is a testing.TB that records failures instead of stopping.
type recorder struct {
	testing.TB
	failed bool
}

func (r *recorder) Helper()               {}
func (r *recorder) Errorf(string, ...any) { r.failed = true }
func (r *recorder) Fatalf(string, ...any) { r.failed = true }
func (r *recorder) Name() string          { return r.TB.Name() }

func TestCheck(t *testing.T) {
	if Update() {
		t.Skip("-update rewrites instead of comparing")
	}
	path := filepath.Join(t.TempDir(), "a.golden")
	if err := os.WriteFile(path, []byte("same\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path, got string
		fail      bool
	}{{path, "same\n", false}, {path, "other\n", true}, {path + ".missing", "x", true}} {
		r := &recorder{TB: t}
		CheckString(r, c.path, c.got)
		if r.failed != c.fail {
			t.Errorf("Check(%s, %q) failed = %v, want %v", filepath.Base(c.path), c.got, r.failed, c.fail)
		}
	}
}
