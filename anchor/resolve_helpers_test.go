package anchor

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/anchor/udiff"
	"github.com/ocr-ci/ocr/review"
)

// resolveFixture is a parsed diff with the new files it came from.
type resolveFixture struct {
	cs    *ChangeSet
	files map[string][]string
	reads map[string]int
}

// loadResolveFixture reads testdata/resolve/<name>.diff and <name>.new/*.
func loadResolveFixture(t testing.TB, name string) *resolveFixture {
	t.Helper()
	dir := filepath.Join("testdata", "resolve")
	diff, err := os.ReadFile(filepath.Join(dir, name+".diff"))
	if err != nil {
		t.Fatal(err)
	}
	fx := &resolveFixture{files: map[string][]string{}, reads: map[string]int{}}
	fx.cs = parseChangeSet(t, string(diff))
	entries, err := os.ReadDir(filepath.Join(dir, name+".new"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, name+".new", e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		fx.files[e.Name()] = fileLines(string(b))
	}
	return fx
}

// parseChangeSet parses a diff into a ChangeSet.
func parseChangeSet(t testing.TB, diff string) *ChangeSet {
	t.Helper()
	files, err := udiff.Parse([]byte(diff))
	if err != nil {
		t.Fatalf("parse resolveFixture: %v", err)
	}
	return NewChangeSet(files)
}

// fileLines splits file content the way NewFile callers do.
func fileLines(s string) []string {
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// options returns Options whose NewFile serves the resolveFixture's files.
func (fx *resolveFixture) options() Options {
	return Options{NewFile: func(path string) ([]string, bool) {
		fx.reads[path]++
		l, ok := fx.files[path]
		return l, ok
	}}
}

func (fx *resolveFixture) resolve(q Query, opt Options) review.Location {
	return Resolve(context.Background(), q, fx.cs, opt)
}

// describeLoc renders a location on one line: path, side, range, in-hunk,
// method and candidates.
func describeLoc(l review.Location) string {
	var b strings.Builder
	b.WriteString(l.Path)
	if l.OldPath != "" {
		fmt.Fprintf(&b, " (from %s)", l.OldPath)
	}
	if l.FileLevel() {
		fmt.Fprintf(&b, " file %s", l.Method)
		return b.String()
	}
	in := "out"
	if l.InHunk {
		in = "in"
	}
	fmt.Fprintf(&b, " %s %d-%d %s %s", l.Side, l.StartLine, l.EndLine, in, l.Method)
	if len(l.Candidates) > 0 {
		fmt.Fprintf(&b, " %v", l.Candidates)
	}
	return b.String()
}
