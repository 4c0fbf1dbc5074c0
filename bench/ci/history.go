package main

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"sort"
	"strings"
)

// shape is the generated history: a main branch of mainCommits commits over
// files source files, and a feature branch forked behind commits before
// main's tip with featureCommits commits changing prFiles files.
type shape struct {
	files          int
	mainCommits    int
	behind         int
	featureCommits int
	prFiles        int
}

// tree is the files of one branch: path → lines.
type tree map[string][]string

// history writes a git fast-import stream for the shape: one process
// builds the whole origin, which keeps the setup fast and deterministic.
type history struct {
	s     shape
	rng   *rand.Rand
	w     *bufio.Writer
	mark  int
	clock int64
}

// writeHistory writes the fast-import stream of s to w.
func writeHistory(w io.Writer, s shape) error {
	h := &history{s: s, rng: rand.New(rand.NewPCG(1, 2)), w: bufio.NewWriter(w), clock: 1_700_000_000}
	main := tree{}
	for i := range s.files {
		main[sourcePath(i)] = sourceFile(h.rng, i)
	}
	h.commit("refs/heads/main", 0, "initial import", main, allPaths(main), nil)
	fork, forkTree := h.mark, cloneTree(main)
	for c := 1; c < s.mainCommits; c++ {
		if c == s.mainCommits-s.behind {
			fork, forkTree = h.mark, cloneTree(main)
		}
		h.commit("refs/heads/main", 0, fmt.Sprintf("main change %d", c), main, h.editSome(main, 3+h.rng.IntN(4)), nil)
	}
	h.feature(forkTree, fork)
	return h.w.Flush()
}

// feature writes the feature branch: it starts at the fork commit (mark
// fork, whose files are t) and changes s.prFiles files over
// s.featureCommits commits; the last one also adds, deletes and renames.
func (h *history) feature(t tree, fork int) {
	paths := allPaths(t)
	h.rng.Shuffle(len(paths), func(i, j int) { paths[i], paths[j] = paths[j], paths[i] })
	n := h.s.prFiles
	touched := paths[:min(n, len(paths))]
	adds, dels, renames := n/20, n/20, n/20
	edits := touched[:len(touched)-adds-dels-renames]
	deleted := touched[len(edits) : len(edits)+dels]
	renamed := touched[len(edits)+dels : len(edits)+dels+renames]
	per := (len(edits) + h.s.featureCommits - 1) / h.s.featureCommits
	for c := 0; c < h.s.featureCommits; c++ {
		from := 0
		if c == 0 {
			from = fork
		}
		lo, hi := min(c*per, len(edits)), min((c+1)*per, len(edits))
		var ops []string
		changed := h.editPaths(t, edits[lo:hi])
		if c == h.s.featureCommits-1 {
			changed, ops = h.structural(t, changed, adds, deleted, renamed)
		}
		h.commit("refs/heads/feature", from, fmt.Sprintf("feature step %d", c+1), t, changed, ops)
	}
}

// structural adds, deletes and renames files in t (renamed files are also
// edited a little, as real renames are); it returns the paths to write and
// the D/R operations, which come first in the commit.
func (h *history) structural(t tree, changed []string, adds int, deleted, renamed []string) ([]string, []string) {
	var ops []string
	for _, p := range deleted {
		delete(t, p)
		ops = append(ops, "D "+p)
	}
	for _, p := range renamed {
		np := strings.Replace(p, "/", "/moved_", 1)
		t[np] = t[p]
		delete(t, p)
		ops = append(ops, "R "+p+" "+np)
		changed = append(changed, h.editPaths(t, []string{np})...)
	}
	for i := range adds {
		p := sourcePath(h.s.files + i)
		t[p] = freshFile(h.rng, h.s.files+i)
		changed = append(changed, p)
	}
	return changed, ops
}

// editSome edits n random files of t and returns their paths.
func (h *history) editSome(t tree, n int) []string {
	paths := allPaths(t)
	var picked []string
	for range n {
		picked = append(picked, paths[h.rng.IntN(len(paths))])
	}
	return h.editPaths(t, picked)
}

// editPaths applies one to three small hunks to each path.
func (h *history) editPaths(t tree, paths []string) []string {
	for _, p := range paths {
		for range 1 + h.rng.IntN(3) {
			t[p] = editLines(h.rng, t[p], p)
		}
	}
	return paths
}

// commit writes one commit setting the given paths to their content in t.
func (h *history) commit(ref string, from int, msg string, t tree, paths, ops []string) {
	h.mark++
	h.clock += 3600
	fmt.Fprintf(h.w, "commit %s\nmark :%d\n", ref, h.mark)
	fmt.Fprintf(h.w, "author bench <bench@localhost> %d +0000\ncommitter bench <bench@localhost> %d +0000\n", h.clock, h.clock)
	fmt.Fprintf(h.w, "data %d\n%s\n", len(msg), msg)
	if from > 0 {
		fmt.Fprintf(h.w, "from :%d\n", from)
	}
	for _, op := range ops {
		fmt.Fprintln(h.w, op)
	}
	seen := map[string]bool{}
	for _, p := range paths {
		if seen[p] {
			continue
		}
		seen[p] = true
		body := strings.Join(t[p], "\n") + "\n"
		fmt.Fprintf(h.w, "M 100644 inline %s\ndata %d\n%s\n", p, len(body), body)
	}
}

func allPaths(t tree) []string {
	paths := make([]string, 0, len(t))
	for p := range t {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	return paths
}

func cloneTree(t tree) tree {
	c := make(tree, len(t))
	for p, lines := range t {
		c[p] = append([]string(nil), lines...)
	}
	return c
}
