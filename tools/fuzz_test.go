package tools

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/review"
)

// The fuzz targets call each tool's Run directly (not through Call, which
// would turn a panic into a result) with arbitrary argument text. Seed
// corpora are in testdata/fuzz/<target>/.

// fuzzSession is a small in-memory session.
func fuzzSession(src Source) *Session {
	return &Session{Source: src, File: "main.go", Diffs: map[string]string{
		"main.go": "@@ -1 +1 @@\n-a\n+b\n", "pkg/x.go": "@@ -1 +1,2 @@\n a\n+b\n"}}
}

// checkResult holds for every tool: a non-empty answer, and error answers
// that start with "Error: ".
func checkResult(t *testing.T, args string, res Result) {
	t.Helper()
	if res.Text == "" {
		t.Fatalf("empty answer for %q", args)
	}
	if res.IsError && !strings.HasPrefix(res.Text, "Error: ") {
		t.Fatalf("error answer without Error: prefix for %q: %q", args, res.Text)
	}
}

func fuzzTool(f *testing.F, run func(context.Context, *Session, json.RawMessage) Result, src Source, check func(*testing.T, string, Result)) {
	f.Fuzz(func(t *testing.T, args string) {
		res := run(context.Background(), fuzzSession(src), json.RawMessage(args))
		checkResult(t, args, res)
		if check != nil {
			check(t, args, res)
		}
	})
}

func FuzzTaskDone(f *testing.F) {
	fuzzTool(f, taskDone, nil, func(t *testing.T, args string, res Result) {
		if res.IsError == res.Done || (res.Failed && !res.Done) {
			t.Fatalf("inconsistent result for %q: %+v", args, res)
		}
	})
}

func FuzzCodeComment(f *testing.F) {
	fuzzTool(f, codeComment, nil, func(t *testing.T, args string, res Result) {
		if res.IsError != (len(res.Comments) == 0) {
			t.Fatalf("error %t with %d comments for %q", res.IsError, len(res.Comments), args)
		}
		for _, c := range res.Comments {
			if strings.TrimSpace(c.Content) == "" || c.Path == "" ||
				string(review.ParseCategory(c.Category)) != c.Category || string(review.ParseSeverity(c.Severity)) != c.Severity {
				t.Fatalf("bad comment %+v for %q", c, args)
			}
		}
	})
}

// fuzzFiles is the in-memory repository of the reading tools' targets.
var fuzzFiles = mapSource{"main.go": "package main\n\nfunc main() {}\n", "pkg/x.go": "package pkg\r\nvar X = 1\r\n",
	"bin.dat": "\x00\x01", "empty.txt": "", "Makefile": "all:\n"}

func FuzzFileRead(f *testing.F)     { fuzzTool(f, fileRead, fuzzFiles, nil) }
func FuzzFileReadDiff(f *testing.F) { fuzzTool(f, fileReadDiff, fuzzFiles, nil) }
func FuzzFileFind(f *testing.F)     { fuzzTool(f, fileFind, fuzzFiles, nil) }

// guardSource fails the fuzz run if a query that could leave the
// repository ever reaches git.
type guardSource struct {
	mapSource
	t *testing.T
}

func (g guardSource) Grep(ctx context.Context, q SearchQuery) ([]Match, error) {
	if strings.TrimSpace(q.Text) == "" {
		g.t.Fatalf("blank search reached git")
	}
	for _, p := range q.Pathspecs {
		rest := strings.ReplaceAll(stripMagic(p), `\`, "/")
		if strings.HasPrefix(rest, "/") || strings.Contains("/"+rest+"/", "/../") {
			g.t.Fatalf("pathspec %q reached git", p)
		}
	}
	return g.mapSource.Grep(ctx, q)
}

func FuzzCodeSearch(f *testing.F) {
	f.Fuzz(func(t *testing.T, args string) {
		res := codeSearch(context.Background(), fuzzSession(guardSource{fuzzFiles, t}), json.RawMessage(args))
		checkResult(t, args, res)
	})
}
