package anchor

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/ocr-ci/ocr/review"
)

// FuzzResolve checks that Resolve never panics and that a location is
// either file-level or a range within its file's lines on its side, whose
// InHunk claim holds.
func FuzzResolve(f *testing.F) {
	fx := loadResolveFixture(f, "multi")
	raw, err := os.ReadFile(filepath.Join("testdata", "resolve", "multi.queries"))
	if err != nil {
		f.Fatal(err)
	}
	for _, q := range parseQueries(nil, string(raw)) {
		f.Add(q.Path, q.Code, q.LineHint)
	}
	f.Add("calc.go", "+\n-\n...\n…\n1|\n\r\n", -5)
	f.Add("ci.yaml", "...\n...\n- lint\n...", 0)
	f.Fuzz(func(t *testing.T, path, code string, hint int) {
		opt := fx.options()
		opt.Relocate = func(context.Context, Query) (string, bool) { return code + "\n", true }
		loc := Resolve(context.Background(), Query{Path: path, Code: code, LineHint: hint}, fx.cs, opt)
		if loc.FileLevel() {
			if loc.EndLine != 0 || loc.Side != review.SideNone || loc.InHunk || loc.Method != review.MethodFileLevel {
				t.Fatalf("inconsistent file-level location %+v", loc)
			}
			return
		}
		if last := lastLine(fx, loc.Path, loc.Side); loc.StartLine < 1 || loc.EndLine < loc.StartLine || loc.EndLine > last {
			t.Fatalf("location %s outside lines 1-%d", describeLoc(loc), last)
		}
		if loc.InHunk != fx.cs.InHunk(loc.Path, loc.Side, loc.StartLine, loc.EndLine) {
			t.Fatalf("location %s: InHunk claim does not hold", describeLoc(loc))
		}
	})
}

// lastLine is the highest line number path has on side: the new file's
// length, or the last old line of its hunks.
func lastLine(fx *resolveFixture, path string, side review.Side) int {
	f, ok := fx.cs.File(path)
	if !ok {
		return len(fx.files[path])
	}
	n := 0
	if side == review.SideNew {
		n = len(fx.files[f.NewPath])
	}
	for _, h := range f.Hunks {
		for _, l := range h.Lines {
			if side == review.SideNew {
				n = max(n, l.NewLine)
			} else {
				n = max(n, l.OldLine)
			}
		}
	}
	return n
}
