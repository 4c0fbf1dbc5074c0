package main

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// editor applies realistic random edits: changed lines, inserted new or
// copied blocks (which make duplicates), deletions, re-indented blocks,
// moved blocks and the odd rename.
type editor struct {
	rng     *rand.Rand
	counter int
}

var wordRE = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]{2,}`)

// commitEdits edits 1–3 files in place; it returns the names it changed
// and the old name of a file it renamed, if any.
func (e *editor) commitEdits(files map[string][]string) (changed []string, removed string) {
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for k := 1 + e.rng.IntN(3); k > 0; k-- {
		name := names[e.rng.IntN(len(names))]
		lines := files[name]
		for ops := 1 + e.rng.IntN(4); ops > 0; ops-- {
			lines = e.op(lines, langs[filepath.Ext(name)])
		}
		files[name] = lines
		changed = append(changed, name)
	}
	if e.rng.IntN(12) == 0 {
		old := names[e.rng.IntN(len(names))]
		ext := filepath.Ext(old)
		nn := strings.TrimSuffix(old, ext) + "_v2" + ext
		if _, taken := files[nn]; !taken {
			files[nn] = files[old]
			delete(files, old)
			return append(changed, nn), old
		}
	}
	return changed, ""
}

// op applies one random edit to lines.
func (e *editor) op(lines []string, lg lang) []string {
	if len(lines) < 8 {
		return append(lines, e.block(lg, "")...)
	}
	i := e.rng.IntN(len(lines))
	k := 1 + e.rng.IntN(min(6, len(lines)-i))
	switch e.rng.IntN(10) {
	case 0, 1, 2:
		lines[i] = e.modify(lines[i], lg)
	case 3:
		j := e.rng.IntN(len(lines) - k + 1)
		return insert(lines, i, append([]string(nil), lines[j:j+k]...))
	case 4, 5:
		return insert(lines, i, e.block(lg, indentOf(lines[i])))
	case 6, 7:
		return append(lines[:i:i], lines[i+k:]...)
	case 8:
		return e.wrap(lines, i, k, lg)
	default:
		moved := append([]string(nil), lines[i:i+k]...)
		rest := slices.Concat(lines[:i], lines[i+k:])
		return insert(rest, e.rng.IntN(len(rest)+1), moved)
	}
	return lines
}

// modify changes one line the way a developer would: rename a word, tweak
// a number or add a trailing comment.
func (e *editor) modify(line string, lg lang) string {
	words := wordRE.FindAllStringIndex(line, -1)
	switch {
	case len(words) > 0 && e.rng.IntN(3) > 0:
		w := words[e.rng.IntN(len(words))]
		return line[:w[1]] + "V2" + line[w[1]:]
	case lg.comment != "" && strings.TrimSpace(line) != "":
		return line + " " + lg.comment + "reviewed"
	}
	return line + " (updated)"
}

func (e *editor) block(lg lang, indent string) []string {
	e.counter++
	out := make([]string, len(lg.block))
	for i, l := range lg.block {
		out[i] = indent + strings.ReplaceAll(l, "%d", fmt.Sprint(e.counter))
	}
	return out
}

// wrap indents lines[i:i+k] one level under a new opening line.
func (e *editor) wrap(lines []string, i, k int, lg lang) []string {
	if lg.wrap[0] == "" {
		return lines
	}
	ind := indentOf(lines[i])
	block := []string{ind + lg.wrap[0]}
	for _, l := range lines[i : i+k] {
		if strings.TrimSpace(l) != "" {
			l = lg.indent + l
		}
		block = append(block, l)
	}
	if lg.wrap[1] != "" {
		block = append(block, ind+lg.wrap[1])
	}
	return insert(append(lines[:i:i], lines[i+k:]...), i, block)
}

func insert(lines []string, i int, block []string) []string {
	out := make([]string, 0, len(lines)+len(block))
	out = append(out, lines[:i]...)
	out = append(out, block...)
	return append(out, lines[i:]...)
}

func indentOf(s string) string { return s[:len(s)-len(strings.TrimLeft(s, " \t"))] }
