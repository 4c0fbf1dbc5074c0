// Command diff measures udiff.Parse against git diff alone on a generated
// repository with a large change (5,000 files, 200,000 changed lines; -small
// for a CI-sized run), and prints times and memory as ratios from one run.
//
//	go run ./bench/diff [-small] [-runs 7]
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/ocr-ci/ocr/anchor/udiff"
	"github.com/ocr-ci/ocr/internal/infra/git"
)

func main() {
	small := flag.Bool("small", false, "a quick run: 200 files, 8,000 changed lines")
	runs := flag.Int("runs", 7, "timed runs of each step; the median is reported")
	flag.Parse()
	if err := run(context.Background(), os.Stdout, *small, *runs); err != nil {
		fmt.Fprintln(os.Stderr, "bench/diff:", err)
		os.Exit(1)
	}
}

// directArgs are internal/infra/git's diff options (see internal/infra/git/diff.go),
// so "git diff alone" produces the same bytes Repo.Diff does.
var directArgs = []string{"--no-pager", "-c", "core.quotepath=false", "diff", "-U3", "--find-renames",
	"--no-ext-diff", "--no-textconv", "--no-color", "--src-prefix=a/", "--dst-prefix=b/",
	"--submodule=short", "--inter-hunk-context=0", "base", "head", "--"}

// run builds the repository, then times and measures each step.
func run(ctx context.Context, w io.Writer, small bool, runs int) error {
	s := size{files: 5000, linesPerFile: 120, changed: 20}
	if small {
		s.files = 200
	}
	dir, err := os.MkdirTemp("", "ocr-bench-diff-")
	if err != nil {
		return err
	}
	defer removeAll(dir)
	start := time.Now()
	if err := buildRepo(ctx, dir, s); err != nil {
		return err
	}
	fmt.Fprintf(w, "built %d files in %v\n", s.files, time.Since(start).Round(time.Millisecond))
	repo, err := git.Open(ctx, dir, git.Options{})
	if err != nil {
		return err
	}
	defer func() { _ = repo.Close() }() // stops git cat-file; the repository is only read
	st := steps{ctx: ctx, dir: dir, repo: repo}
	diff, err := st.gitAlone()
	if err != nil { // also warms the page cache
		return err
	}
	files, err := udiff.Parse(diff)
	if err != nil {
		return err
	}
	describe(w, diff, files)
	return report(w, &st, diff, runs)
}

// describe prints the size of the change.
func describe(w io.Writer, diff []byte, files []udiff.File) {
	adds, dels := 0, 0
	for _, f := range files {
		adds, dels = adds+f.Additions, dels+f.Deletions
	}
	fmt.Fprintf(w, "diff: %d files, %d changed lines (+%d -%d), %.1f MB\n\n",
		len(files), adds+dels, adds, dels, mb(uint64(len(diff))))
}

func mb(n uint64) float64 { return float64(n) / (1 << 20) }

// removeAll removes a temporary directory when the program is done with
// it; a failure only leaves files behind, so it is reported, not fatal.
func removeAll(dir string) {
	if err := os.RemoveAll(dir); err != nil {
		fmt.Fprintln(os.Stderr, "warning: could not remove a temporary directory:", err)
	}
}
