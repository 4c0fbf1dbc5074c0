package anchor

import (
	"testing"

	"github.com/ocr-ci/ocr/internal/testkit/golden"
)

// checkGolden compares got with the golden file, rewriting it under the
// test kit's -update flag.
func checkGolden(t *testing.T, path, got string) {
	t.Helper()
	golden.CheckString(t, path, got)
}
