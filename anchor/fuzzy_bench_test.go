package anchor

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// The fuzzy worst case of issue 23: a large file made of common tokens
// (every line is built from the same few words, so every token of a quote
// occurs everywhere) and long quotes of such lines that match nowhere. The
// quotes also hold a few of the file's distinctive lines (found once in
// it), as a real quote of code from another version of the file would.

const (
	worstFileLines  = 16000
	worstQuoteLines = 300
)

var worstWords = []string{"err", "ctx", "x", "y", "n", "cfg", "req", "resp", "buf", "key", "val", "i"}

// worstLine is line i of a file built from seed: code of the common
// shapes over worstWords, with a distinctive comment every 97 lines.
func worstLine(seed, i int) string {
	if i%97 == 0 {
		return fmt.Sprintf("\t// step %d of the pipeline", i)
	}
	h := uint32(seed*2654435761) ^ uint32(i*40503)
	h ^= h >> 13
	h *= 0x5bd1e995
	h ^= h >> 15
	w := func(k uint32) string { return worstWords[(h>>(4*k))%uint32(len(worstWords))] }
	switch h % 6 {
	case 0:
		return "\tif " + w(1) + " != nil {"
	case 1:
		return "\t\treturn " + w(1) + ", " + w(2)
	case 2:
		return "\t}"
	case 3:
		return "\t" + w(1) + " := " + w(2) + ".Get(" + w(3) + ")"
	case 4:
		return "\t" + w(1) + " = append(" + w(2) + ", " + w(3) + ")"
	}
	return "\tfor " + w(1) + " := range " + w(2) + " {"
}

// worstFixture is the large file (as NewFile returns it), a change set
// with one small hunk in it, and three unplaceable quotes of n lines.
func worstFixture(t testing.TB, n int) (*ChangeSet, Options, []string) {
	t.Helper()
	lines := make([]string, worstFileLines)
	for i := range lines {
		lines[i] = worstLine(1, i)
	}
	diff := "diff --git a/big.go b/big.go\n--- a/big.go\n+++ b/big.go\n@@ -100,2 +100,3 @@\n " +
		lines[99] + "\n+" + lines[100] + "\n " + lines[101] + "\n"
	cs := parseChangeSet(t, diff)
	opt := Options{NewFile: func(p string) ([]string, bool) { return lines, p == "big.go" }}
	var quotes []string
	for q := range 3 {
		quote := make([]string, n)
		for i := range quote {
			quote[i] = worstLine(2+q, i)
		}
		for k := 1; k <= 3; k++ { // a few distinctive lines of the file, far apart
			quote[k*n/4] = lines[97*(k*40+q)]
		}
		quotes = append(quotes, strings.Join(quote, "\n"))
	}
	return cs, opt, quotes
}

// BenchmarkFuzzyWorstCase resolves three unplaceable quotes in a
// 16,000-line file of common tokens: one op is all three. "long" quotes
// 300 lines, "short" 30 (under the fuzzy length cap, so every window of
// the file is a candidate).
func BenchmarkFuzzyWorstCase(b *testing.B) {
	for _, c := range []struct {
		name string
		n    int
	}{{"long", worstQuoteLines}, {"short", 30}} {
		b.Run(c.name, func(b *testing.B) {
			cs, opt, quotes := worstFixture(b, c.n)
			ctx := context.Background()
			for b.Loop() {
				for _, q := range quotes {
					Resolve(ctx, Query{Path: "big.go", Code: q}, cs, opt)
				}
			}
		})
	}
}
