package main

import (
	"fmt"
	"math/rand/v2"
	"path"
	"strings"
)

// sourcePath is file i's path: Go, TypeScript and Python in turn, spread
// over a few dozen directories as in a mid-sized service repository.
func sourcePath(i int) string {
	switch i % 3 {
	case 0:
		return fmt.Sprintf("internal/pkg%02d/file%04d.go", i%40, i)
	case 1:
		return fmt.Sprintf("web/src/comp%02d/file%04d.ts", i%30, i)
	default:
		return fmt.Sprintf("scripts/mod%02d/file%04d.py", i%20, i)
	}
}

// sourceFile is file i's first version: a header and 6–20 small functions.
func sourceFile(rng *rand.Rand, i int) []string {
	p := sourcePath(i)
	lines := header(p)
	for f := range 6 + rng.IntN(15) {
		lines = append(lines, function(p, f, rng.IntN(1000))...)
	}
	return lines
}

func header(p string) []string {
	switch path.Ext(p) {
	case ".go":
		return []string{"package " + path.Base(path.Dir(p)), "", `import "fmt"`, "", "var _ = fmt.Sprint", ""}
	case ".ts":
		return []string{`import { log } from "../log";`, ""}
	default:
		return []string{"import logging", "", "log = logging.getLogger(__name__)", ""}
	}
}

// freshFile is a file added by the pull request: tables of numbers rather
// than the usual functions, so that git does not pair it with a deleted
// file as a rename.
func freshFile(rng *rand.Rand, i int) []string {
	p := sourcePath(i)
	lines := header(p)
	for t := range 10 + rng.IntN(20) {
		lines = append(lines, table(p, t, rng))
	}
	return lines
}

func table(p string, n int, rng *rand.Rand) string {
	v := fmt.Sprintf("%d, %d, %d, %d, %d", rng.IntN(1e6), rng.IntN(1e6), rng.IntN(1e6), rng.IntN(1e6), rng.IntN(1e6))
	switch path.Ext(p) {
	case ".go":
		return fmt.Sprintf("var limits%d = []int{%s}", n, v)
	case ".ts":
		return fmt.Sprintf("export const limits%d = [%s];", n, v)
	default:
		return fmt.Sprintf("LIMITS_%d = [%s]", n, v)
	}
}

// function is one small function in the file's language.
func function(p string, n, k int) []string {
	name := fmt.Sprintf("step%d", n)
	switch path.Ext(p) {
	case ".go":
		return []string{
			fmt.Sprintf("// Step%d scales a by %d.", n, k),
			fmt.Sprintf("func Step%d(a int) int {", n),
			fmt.Sprintf("\tb := a * %d", k),
			"\tif b > 100 {",
			fmt.Sprintf("\t\treturn b - %d", k%7),
			"\t}",
			"\treturn b + 1",
			"}", ""}
	case ".ts":
		return []string{
			fmt.Sprintf("export function %s(a: number): number {", name),
			fmt.Sprintf("  const b = a * %d;", k),
			"  if (b > 100) {",
			fmt.Sprintf("    log(\"%s\", b);", name),
			fmt.Sprintf("    return b - %d;", k%7),
			"  }",
			"  return b + 1;",
			"}", ""}
	default:
		return []string{
			fmt.Sprintf("def %s(a):", name),
			fmt.Sprintf("    b = a * %d", k),
			"    if b > 100:",
			fmt.Sprintf("        log.info(\"%s %%d\", b)", name),
			fmt.Sprintf("        return b - %d", k%7),
			"    return b + 1",
			"", ""}
	}
}

// editLines replaces one to three body lines at a random place and
// sometimes inserts a few, the shape of an ordinary code change.
func editLines(rng *rand.Rand, lines []string, p string) []string {
	out := append([]string(nil), lines...)
	at := 4 + rng.IntN(max(1, len(out)-6))
	for strings.TrimSpace(out[at]) == "" { // always change something
		at = (at + 1) % len(out)
	}
	for j := at; j < min(len(out), at+1+rng.IntN(3)); j++ {
		if strings.TrimSpace(out[j]) != "" {
			out[j] = changed(p, out[j], rng.IntN(10000))
		}
	}
	if rng.IntN(3) == 0 {
		extra := function(p, 100+rng.IntN(900), rng.IntN(1000))
		out = append(out[:at], append(extra, out[at:]...)...)
	}
	return out
}

// changed is line with a different constant, keeping its indentation.
func changed(p, line string, k int) string {
	indent := line[:len(line)-len(strings.TrimLeft(line, " \t"))]
	switch path.Ext(p) {
	case ".go":
		return fmt.Sprintf("%sx%d := %d // tuned", indent, k, k)
	case ".ts":
		return fmt.Sprintf("%sconst x%d = %d; // tuned", indent, k, k)
	default:
		return fmt.Sprintf("%sx%d = %d  # tuned", indent, k, k)
	}
}
