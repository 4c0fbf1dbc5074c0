package main

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestOriginShape checks that the generated pull request is what the
// benchmark claims: 200 files (170 edited, 10 added, 10 deleted, 10
// renamed) on a branch forked behind main's tip.
func TestOriginShape(t *testing.T) {
	ctx := context.Background()
	s := shape{files: 300, mainCommits: 60, behind: 10, featureCommits: 5, prFiles: 200}
	o, err := makeOrigin(ctx, t.TempDir(), s)
	if err != nil {
		t.Fatal(err)
	}
	mb, err := git(ctx, o.dir, nil, "merge-base", o.base, o.head)
	if err != nil {
		t.Fatal(err)
	}
	ns, err := git(ctx, o.dir, nil, "diff", "--name-status", "--find-renames", mb, o.head)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	for _, l := range splitLines(ns) {
		kinds[l[:1]]++
	}
	if want := map[string]int{"M": 170, "A": 10, "D": 10, "R": 10}; histogram(kinds) != histogram(want) {
		t.Errorf("pull request files = %s, want %s", histogram(kinds), histogram(want))
	}
	for rng, want := range map[string]int{mb + ".." + o.base: s.behind, mb + ".." + o.head: s.featureCommits, o.base: s.mainCommits} {
		out, err := git(ctx, o.dir, nil, "rev-list", "--count", rng)
		if err != nil {
			t.Fatal(err)
		}
		if n, _ := strconv.Atoi(out); n != want {
			t.Errorf("rev-list --count %s = %s, want %d", rng, out, want)
		}
	}
}

// TestCountGit checks the reading of the shim log and the trace2 events.
func TestCountGit(t *testing.T) {
	dir := t.TempDir()
	start := time.Unix(1000, 0)
	shimLog := writeFile(t, dir, "shim.log", strings.Join([]string{
		"1000.010000 version",
		"1000.020000 -c core.quotepath=false -C /r rev-parse --is-shallow-repository",
		"1000.030000 -c a=b fetch --quiet --depth=1 origin abc",
		"1000.100000 fetch --deepen=50 origin abc",
		"1000.200000 merge-base a b",
	}, "\n")+"\n")
	trace := writeFile(t, dir, "trace.json", strings.Join([]string{
		`{"event":"version","sid":"s1"}`,
		`{"event":"start","sid":"s1","argv":["git","fetch"]}`,
		`{"event":"start","sid":"s1/s2","argv":["git-upload-pack","/o"]}`,
		`{"event":"start","sid":"s1/s3","argv":["/usr/lib/git-core/git","--shallow-file","x.lock","index-pack","--stdin"]}`,
	}, "\n")+"\n")
	c, err := countGit(shimLog, trace, start)
	if err != nil {
		t.Fatal(err)
	}
	if c.direct != 5 || c.all != 3 || c.fetches != 2 {
		t.Errorf("direct %d all %d fetches %d, want 5 3 2", c.direct, c.all, c.fetches)
	}
	if got, want := histogram(c.byCmd), "fetch 2, merge-base 1, rev-parse 1, version 1"; got != want {
		t.Errorf("by command %q, want %q", got, want)
	}
	if got, want := histogram(c.nested), "index-pack 1, upload-pack 1"; got != want {
		t.Errorf("nested %q, want %q", got, want)
	}
	if c.fetchFrom != 30*time.Millisecond || c.fetchTo != 200*time.Millisecond {
		t.Errorf("fetch span %v–%v, want 30ms–200ms", c.fetchFrom, c.fetchTo)
	}
}

func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := dir + "/" + name
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
