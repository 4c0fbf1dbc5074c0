// Package shard splits a scan's selection into N parts that CI runs as
// parallel jobs: deterministically (the same tree and flags give the same
// parts on every machine), exactly (every file in one part), keeping a
// directory's files and every review group together, and balanced by
// estimated tokens rather than by file count.
package shard

import (
	"fmt"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/ocr-ci/ocr/review"
)

// MaxTotal bounds N: more parts than this is a typo, not a plan.
const MaxTotal = 256

// Parse reads "I/N" (1 <= I <= N): shard I of N.
func Parse(s string) (review.Shard, error) {
	i, n, ok := strings.Cut(strings.TrimSpace(s), "/")
	idx, err1 := strconv.Atoi(strings.TrimSpace(i))
	total, err2 := strconv.Atoi(strings.TrimSpace(n))
	switch {
	case !ok || err1 != nil || err2 != nil:
		return review.Shard{}, fmt.Errorf("shard %q is not I/N: give the part to review and the number of parts, e.g. 2/4", s)
	case total < 1 || total > MaxTotal:
		return review.Shard{}, fmt.Errorf("shard %q: N must be between 1 and %d", s, MaxTotal)
	case idx < 1 || idx > total:
		return review.Shard{}, fmt.Errorf("shard %q: I must be between 1 and N (shards are numbered from 1)", s)
	}
	return review.Shard{Index: idx, Total: total}, nil
}

// Resolve is the part a scan reviews: spec (--shard, OCR_SHARD) when
// given, else a GitLab job's `parallel: N` (CI_NODE_INDEX of
// CI_NODE_TOTAL); nil for everything, N of 1 included.
func Resolve(spec string, nodeIndex, nodeTotal int) (*review.Shard, error) {
	if spec == "" {
		if s, ok := fromNode(nodeIndex, nodeTotal); ok {
			return &s, nil
		}
		return nil, nil
	}
	s, err := Parse(spec)
	if err != nil || s.Total == 1 {
		return nil, err
	}
	return &s, nil
}

// fromNode is the shard of a GitLab job with `parallel: N`, from
// CI_NODE_INDEX and CI_NODE_TOTAL (both from 1); ok is false when the job
// is not parallel.
func fromNode(index, total int) (review.Shard, bool) {
	if total <= 1 || index < 1 || index > total {
		return review.Shard{}, false
	}
	return review.Shard{Index: index, Total: total}, true
}

// Item is what the split needs of a file: its path and its estimated
// tokens (0 for a file that is not reviewed: it follows its directory).
type Item struct {
	Path   string
	Tokens int
}

// Assign returns the shard (1..n) of every item. Items of one directory,
// and items of one group of together (indices into items), are in one
// shard. Units are placed largest first on the least loaded shard (ties:
// the smaller path first, the lower shard), so the split depends only on
// the paths, the tokens and n.
func Assign(items []Item, together [][]int, n int) []int {
	out := make([]int, len(items))
	if n <= 1 {
		for i := range out {
			out[i] = 1
		}
		return out
	}
	load := make([]int, n)
	for _, u := range units(items, together) {
		best := 0
		for s := 1; s < n; s++ {
			if load[s] < load[best] {
				best = s
			}
		}
		load[best] += u.tokens
		for _, i := range u.members {
			out[i] = best + 1
		}
	}
	return out
}

// unit is a set of items that stay in one shard.
type unit struct {
	members []int
	tokens  int
	first   string // the smallest path, for a deterministic order
}

// units joins items by directory and by together, ordered largest first.
func units(items []Item, together [][]int) []unit {
	uf := newUnionFind(len(items))
	byDir := map[string]int{}
	for i, it := range items {
		d := path.Dir(it.Path)
		if j, ok := byDir[d]; ok {
			uf.join(i, j)
		} else {
			byDir[d] = i
		}
	}
	for _, g := range together {
		for _, i := range g[1:] {
			uf.join(g[0], i)
		}
	}
	byRoot := map[int]*unit{}
	var out []*unit
	for i, it := range items {
		r := uf.find(i)
		u := byRoot[r]
		if u == nil {
			u = &unit{first: it.Path}
			byRoot[r] = u
			out = append(out, u)
		}
		u.members = append(u.members, i)
		u.tokens += it.Tokens
		u.first = min(u.first, it.Path)
	}
	sort.Slice(out, func(a, b int) bool {
		if out[a].tokens != out[b].tokens {
			return out[a].tokens > out[b].tokens
		}
		return out[a].first < out[b].first
	})
	units := make([]unit, len(out))
	for i, u := range out {
		units[i] = *u
	}
	return units
}

// Balance is the largest shard's tokens over the mean (1 is perfect); 0
// when there are no tokens.
func Balance(items []Item, assign []int, n int) float64 {
	load := make([]int, n)
	total := 0
	for i, it := range items {
		load[assign[i]-1] += it.Tokens
		total += it.Tokens
	}
	if total == 0 {
		return 0
	}
	top := 0
	for _, l := range load {
		top = max(top, l)
	}
	return float64(top) * float64(n) / float64(total)
}

// Category is the SARIF category of one shard's own upload
// ("ocr-scan/shard-2-of-4"), so uploads of the shards do not replace each
// other when they are not merged.
func Category(base string, s review.Shard) string {
	return fmt.Sprintf("%s/shard-%d-of-%d", strings.Trim(base, "/"), s.Index, s.Total)
}

type unionFind []int

func newUnionFind(n int) unionFind {
	u := make(unionFind, n)
	for i := range u {
		u[i] = i
	}
	return u
}

func (u unionFind) find(i int) int {
	for u[i] != i {
		u[i] = u[u[i]]
		i = u[i]
	}
	return i
}

// join links the sets of a and b under the smaller root, so the result
// does not depend on the order of the calls.
func (u unionFind) join(a, b int) {
	ra, rb := u.find(a), u.find(b)
	if ra > rb {
		ra, rb = rb, ra
	}
	u[rb] = ra
}

// Select keeps the files of part s of a scan: every file is in one part,
// each directory stays whole, and so does each group that groups returns
// (indices into the paths it is given, the reviewed files) — the review
// groups of the whole selection. A file's tokens are its diff's bytes / 4.
func Select(files []review.FileCoverage, diffs map[string]string, s review.Shard, groups func(paths []string, tokens []int) [][]int) []review.FileCoverage {
	items := make([]Item, len(files))
	var paths []string
	var tokens, at []int // at: the index in files of each reviewed file
	for i, f := range files {
		items[i].Path = f.Path
		if f.Reviewed {
			items[i].Tokens = len(diffs[f.Path]) / 4
			paths, tokens, at = append(paths, f.Path), append(tokens, items[i].Tokens), append(at, i)
		}
	}
	var together [][]int
	for _, g := range groups(paths, tokens) {
		idx := make([]int, len(g))
		for k, i := range g {
			idx[k] = at[i]
		}
		together = append(together, idx)
	}
	assign := Assign(items, together, s.Total)
	out := []review.FileCoverage{}
	for i, f := range files {
		if assign[i] == s.Index {
			out = append(out, f)
		}
	}
	return out
}

// Text names the part reviewed for a log line: ", shard 2 of 4", or "".
func Text(s *review.Shard) string {
	if s == nil {
		return ""
	}
	return fmt.Sprintf(", shard %d of %d", s.Index, s.Total)
}

// EmptyNote says why part s of a scan got no file although the selection
// has some (directories are kept whole, so there are fewer directories
// than parts) and what to do; "" when the part has files or nothing was
// selected.
func EmptyNote(selected, part []review.FileCoverage, s review.Shard) string {
	dirs := map[string]bool{}
	for _, f := range selected {
		if f.Reviewed {
			dirs[path.Dir(f.Path)] = true
		}
	}
	if len(part) > 0 || len(dirs) == 0 {
		return ""
	}
	todo := fmt.Sprintf("use at most %d shards (--shard I/%d)", len(dirs), len(dirs))
	if len(dirs) == 1 {
		todo = "scan without --shard"
	}
	return fmt.Sprintf("shard %d of %d got no file: the files selected are in %d director%s, and a directory is never split "+
		"across shards (its files are reviewed together), so at most %d shard(s) get work: %s",
		s.Index, s.Total, len(dirs), plural(len(dirs), "y", "ies"), len(dirs), todo)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
