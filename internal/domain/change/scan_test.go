package change

import (
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/anchor/udiff"
)

func TestWriteAddedDiffParses(t *testing.T) {
	cases := map[string]struct {
		path, content string
		lines         int
		binary        bool
	}{
		"plain":      {"a.go", "x\ny\n", 2, false},
		"no newline": {"a.go", "x\ny", 2, false},
		"crlf":       {"a.go", "x\r\ny\r\n", 2, false},
		"empty":      {"a.go", "", 0, false},
		"binary":     {"a.bin", "a\x00b", 0, true},
		"odd name":   {"dir/a \"q\"\t\u00e9.go", "x\n", 1, false},
	}
	for name, c := range cases {
		var b strings.Builder
		writeAddedDiff(&b, c.path, []byte(c.content))
		files, err := udiff.ParseString(b.String())
		if err != nil || len(files) != 1 {
			t.Errorf("%s: %v, %d files\n%s", name, err, len(files), b.String())
			continue
		}
		f := files[0]
		if f.Path() != c.path || f.Additions != c.lines || f.Binary != c.binary || f.Status != udiff.StatusAdded {
			t.Errorf("%s: path %q +%d binary %v status %s", name, f.Path(), f.Additions, f.Binary, f.Status)
		}
	}
}
