// Package grouping splits a review's files into groups reviewed together
// in one conversation: related files first (same stem, variants of one
// resource), then a directory's files packed within file and token caps.
// Pure and deterministic: no model call.
package grouping

import (
	"path"
	"slices"
	"sort"
	"strings"
)

// Grouping limits: related files are reviewed together in one conversation,
// up to these caps (the model sees the whole group's diff at once).
const (
	// DefaultFiles caps the files of one group.
	DefaultFiles = 8
	// DefaultTokens caps the diff tokens of one group.
	DefaultTokens = 12_000
	// smallChange is the churn under which a whole change is one group.
	smallChange = 200
)

// File is what grouping needs of a file.
type File struct {
	Path string
	// Churn is additions + deletions.
	Churn int
	// Tokens estimates the file's diff size in the prompt.
	Tokens int
}

// Group lists indices into the grouped files, in input order.
type Group []int

// Bundle groups files without a model call, deterministically: same-stem
// files (foo.go + foo_test.go, Foo + FooImpl + IFoo, foo.c + foo.h) and
// variants of one resource (messages_en.properties + messages_zh.properties,
// locales/en/x.json + locales/zh/x.json) are bundled first, then bundles of
// one directory are packed together, within maxFiles and maxTokens. A change
// under 200 changed lines that fits the caps is one group. Every file is in
// exactly one group; groups are ordered by their first file.
func Bundle(files []File, maxFiles, maxTokens int) []Group {
	maxFiles, maxTokens = groupCaps(maxFiles, maxTokens)
	if len(files) > 0 {
		if g, ok := smallSet(files, maxFiles, maxTokens); ok {
			return []Group{g}
		}
	}
	return ByDir(files, maxFiles, maxTokens)
}

// ByDir is Bundle without the small-change shortcut: files of
// different directories are never grouped together, however few they are
// (a scan, where a directory is the unit of related code).
func ByDir(files []File, maxFiles, maxTokens int) []Group {
	maxFiles, maxTokens = groupCaps(maxFiles, maxTokens)
	if len(files) == 0 {
		return nil
	}
	return pack(files, related(files), maxFiles, maxTokens)
}

// groupCaps fills the group caps left unset.
func groupCaps(maxFiles, maxTokens int) (int, int) {
	if maxFiles <= 0 {
		maxFiles = DefaultFiles
	}
	if maxTokens <= 0 {
		maxTokens = DefaultTokens
	}
	return maxFiles, maxTokens
}

func smallSet(files []File, maxFiles, maxTokens int) (Group, bool) {
	churn, toks := 0, 0
	g := make(Group, len(files))
	for i, f := range files {
		churn, toks, g[i] = churn+f.Churn, toks+f.Tokens, i
	}
	return g, churn < smallChange && len(files) <= maxFiles && toks <= maxTokens
}

// related returns bundles of related files (union-find over stems).
func related(files []File) [][]int {
	uf := newUnionFind(len(files))
	byKey := map[string]int{}
	plain := map[string][]int{} // stem without role marker → files
	stems := make([]string, len(files))
	roles := make([]bool, len(files))
	for i, f := range files {
		stems[i], roles[i] = stem(path.Base(f.Path))
		k := variantKey(f.Path, stems[i])
		if j, ok := byKey[k]; ok {
			uf.join(i, j)
		} else {
			byKey[k] = i
		}
		if !roles[i] {
			plain[stems[i]] = append(plain[stems[i]], i)
		}
	}
	for i, f := range files {
		if !roles[i] {
			continue
		}
		c := plain[stems[i]]
		if j, same := inDir(files, c, path.Dir(f.Path)); len(c) == 1 || same {
			uf.join(i, j)
		}
	}
	return uf.sets()
}

// variantKey is the directory with locale segments wildcarded plus the
// base name's stem s: files with equal keys are variants of one resource
// or same-stem siblings.
func variantKey(p, s string) string {
	dir, _ := path.Split(p)
	segs := strings.Split(strings.Trim(dir, "/"), "/")
	for i, seg := range segs {
		if isLocale(seg) {
			segs[i] = "{locale}"
		}
	}
	return strings.Join(segs, "/") + "/" + s
}

// inDir returns the first of c in dir, or c[0] and false when none is.
func inDir(files []File, c []int, dir string) (int, bool) {
	for _, i := range c {
		if path.Dir(files[i].Path) == dir {
			return i, true
		}
	}
	if len(c) == 0 {
		return -1, false
	}
	return c[0], false
}

// pack fills groups directory by directory, keeping bundles whole when they
// fit and splitting those that exceed the caps.
func pack(files []File, bundles [][]int, maxFiles, maxTokens int) []Group {
	sortByDir(files, bundles)
	var out []Group
	var cur Group
	curDir, curTok := "", 0
	flush := func() {
		if len(cur) > 0 {
			out = append(out, cur)
		}
		cur, curTok = nil, 0
	}
	for _, b := range bundles {
		dir, tok := path.Dir(files[b[0]].Path), 0
		for _, i := range b {
			tok += files[i].Tokens
		}
		if dir != curDir || len(cur)+len(b) > maxFiles || curTok+tok > maxTokens {
			flush()
		}
		curDir = dir
		for _, i := range b {
			if len(cur) > 0 && (len(cur) >= maxFiles || curTok+files[i].Tokens > maxTokens) {
				flush()
			}
			cur, curTok = append(cur, i), curTok+files[i].Tokens
		}
	}
	flush()
	for _, g := range out {
		sort.Ints(g)
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a][0] < out[b][0] })
	return out
}

// sortByDir orders bundles by the directory of their first file, then by
// input order.
func sortByDir(files []File, bundles [][]int) {
	sort.SliceStable(bundles, func(a, b int) bool {
		da, db := path.Dir(files[bundles[a][0]].Path), path.Dir(files[bundles[b][0]].Path)
		if da != db {
			return da < db
		}
		return bundles[a][0] < bundles[b][0]
	})
}

// ForPass is the order the files of g are shown in by pass (from 0) of
// several independent reviews: the first pass as bundled, a later one
// rotated (reversed when the rotation comes back to the start), so that
// consecutive passes do not read the files alike.
func (g Group) ForPass(pass int) Group {
	if pass == 0 || len(g) < 2 {
		return g
	}
	k := pass % len(g)
	out := slices.Concat(g[k:], g[:k])
	if k == 0 {
		slices.Reverse(out)
	}
	return out
}
