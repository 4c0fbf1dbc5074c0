package anchor

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestResolveGolden resolves every query of testdata/resolve/<case>.queries
// against <case>.diff and the new files in <case>.new/, and compares the
// echoed queries with their locations to <case>.golden (-update rewrites).
//
// A query starts with "== path" (optionally "hint=N"); the lines up to the
// next "==" are its code. Lines starting with "#" before a query are notes.
func TestResolveGolden(t *testing.T) {
	inputs, err := filepath.Glob(filepath.Join("testdata", "resolve", "*.queries"))
	if err != nil || len(inputs) == 0 {
		t.Fatalf("no golden queries: %v", err)
	}
	for _, in := range inputs {
		name := strings.TrimSuffix(filepath.Base(in), ".queries")
		t.Run(name, func(t *testing.T) {
			fx := loadResolveFixture(t, name)
			raw, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			for _, q := range parseQueries(t, string(raw)) {
				loc := fx.resolve(q, fx.options())
				fmt.Fprintf(&b, "== %s", q.Path)
				if q.LineHint > 0 {
					fmt.Fprintf(&b, " hint=%d", q.LineHint)
				}
				fmt.Fprintf(&b, "\n%s\n-> %s\n\n", q.Code, describeLoc(loc))
			}
			checkGolden(t, strings.TrimSuffix(in, ".queries")+".golden", b.String())
		})
	}
}

// parseQueries reads a .queries file; t may be nil (fuzz seeds).
func parseQueries(t *testing.T, raw string) []Query {
	var qs []Query
	var code []string
	flush := func() {
		if len(qs) > 0 {
			qs[len(qs)-1].Code = strings.TrimSuffix(strings.Join(code, "\n"), "\n")
		}
		code = nil
	}
	for _, line := range strings.Split(raw, "\n") {
		head, ok := strings.CutPrefix(line, "== ")
		if !ok {
			if len(qs) > 0 {
				code = append(code, line)
			}
			continue
		}
		flush()
		f := strings.Fields(head)
		q := Query{Path: f[0]}
		for _, opt := range f[1:] {
			n, err := strconv.Atoi(strings.TrimPrefix(opt, "hint="))
			if err != nil && t != nil {
				t.Fatalf("bad query header %q", line)
			}
			q.LineHint = n
		}
		qs = append(qs, q)
	}
	flush()
	return qs
}
