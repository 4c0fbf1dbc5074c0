// Command ci measures `ocr review` as CI runs it on a 200-file pull request:
// the time from process start to the first model request, in a depth-1
// clone (fetching the base and deepening included) and in a full clone,
// the number of git processes spawned, and the cost of --preview.
//
// It generates an origin repository (fast-import: a main branch with a
// few hundred Go/TS/Python files and hundreds of commits, a feature branch
// forked behind main's tip changing 200 files with edits, adds, deletes and
// renames), clones the feature branch as actions/checkout does, builds ocr
// once and runs it against a fake OpenAI-compatible server on loopback that
// ends every conversation at once with task_done.
//
//	go run ./bench/ci [-short] [-runs 3] [-v]
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"time"
)

func main() {
	short := flag.Bool("short", false, "a quick run for CI: a shorter history, one timed run")
	runs := flag.Int("runs", 3, "timed runs per scenario; the median is reported (-short: 1)")
	verbose := flag.Bool("v", false, "print ocr's stderr of every counted run with timestamps")
	flag.Parse()
	s := shape{files: 450, mainCommits: 300, behind: 30, featureCommits: 6, prFiles: 200}
	if *short {
		s = shape{files: 300, mainCommits: 60, behind: 10, featureCommits: 5, prFiles: 200}
		if !flagSet("runs") {
			*runs = 1
		}
	}
	if err := run(context.Background(), os.Stdout, s, max(1, *runs), *verbose); err != nil {
		fmt.Fprintln(os.Stderr, "bench/ci:", err)
		os.Exit(1)
	}
}

func flagSet(name string) bool {
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// scenarios are the runs compared in the table.
var scenarios = []scenario{
	{name: "shallow (depth 1)", shallow: true},
	{name: "full clone"},
	{name: "preview, shallow", shallow: true, preview: true},
}

// run sets everything up, runs every scenario and prints the table.
func run(ctx context.Context, w io.Writer, s shape, runs int, verbose bool) error {
	tmp, err := os.MkdirTemp("", "ocr-bench-ci-")
	if err != nil {
		return err
	}
	defer removeAll(tmp)
	e, err := setup(ctx, w, tmp, s)
	if err != nil {
		return err
	}
	var rows []row
	for _, sc := range scenarios {
		r, err := e.measure(ctx, sc, runs)
		if err != nil {
			return fmt.Errorf("%s: %w", sc.name, err)
		}
		rows = append(rows, r)
		if verbose || r.failed() {
			printStderr(w, sc.name, r.counted)
		}
	}
	report(w, rows, runs)
	return nil
}

// setup builds ocr, the origin and the shim.
func setup(ctx context.Context, w io.Writer, tmp string, s shape) (*env, error) {
	t0 := time.Now()
	bin, err := buildOCR(ctx, tmp)
	if err != nil {
		return nil, err
	}
	t1 := time.Now()
	o, err := makeOrigin(ctx, tmp, s)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(w, "built ocr in %v; origin (%d files, %d commits on main, feature %d commits forked %d behind) in %v\n",
		t1.Sub(t0).Round(time.Millisecond), s.files, s.mainCommits, s.featureCommits, s.behind, time.Since(t1).Round(time.Millisecond))
	if err := describePR(ctx, w, o); err != nil {
		return nil, err
	}
	gitPath, err := exec.LookPath("git")
	if err != nil {
		return nil, err
	}
	sh, err := makeShim(tmp, gitPath)
	return &env{tmp: tmp, ocr: bin, origin: o, shim: sh}, err
}

// describePR prints the pull request's size: what ocr should see.
func describePR(ctx context.Context, w io.Writer, o origin) error {
	mb, err := git(ctx, o.dir, nil, "merge-base", o.base, o.head)
	if err != nil {
		return err
	}
	stat, err := git(ctx, o.dir, nil, "diff", "--shortstat", "--find-renames", mb, o.head)
	if err != nil {
		return err
	}
	ns, err := git(ctx, o.dir, nil, "diff", "--name-status", "--find-renames", mb, o.head)
	if err != nil {
		return err
	}
	kinds := map[string]int{}
	for _, l := range splitLines(ns) {
		kinds[l[:1]]++
	}
	fmt.Fprintf(w, "pull request: base %.12s head %.12s merge base %.12s;%s (%s)\n\n", o.base, o.head, mb, stat, histogram(kinds))
	return nil
}

// row is one scenario's figures: the median of the timed runs, and the
// counted run (shim and trace2 on, so slightly slower) for git figures.
type row struct {
	sc             scenario
	toFirst, wall  time.Duration // medians of the timed runs
	counted        result
	exits          []int
	requestsPerRun int
}

func (r row) failed() bool {
	for _, x := range r.exits {
		if x != 0 {
			return true
		}
	}
	return !r.sc.preview && r.toFirst == 0
}

// measure runs sc once counted and runs times timed.
func (e *env) measure(ctx context.Context, sc scenario, runs int) (row, error) {
	r := row{sc: sc}
	counted := sc
	counted.counted = true
	var err error
	if r.counted, err = e.run(ctx, counted); err != nil {
		return r, err
	}
	r.exits = append(r.exits, r.counted.exit)
	var firsts, walls []time.Duration
	for range runs {
		res, err := e.run(ctx, sc)
		if err != nil {
			return r, err
		}
		firsts, walls = append(firsts, res.toFirst), append(walls, res.wall)
		r.exits, r.requestsPerRun = append(r.exits, res.exit), res.requests
	}
	r.toFirst, r.wall = median(firsts), median(walls)
	return r, nil
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}

// printStderr prints a run's stderr with the time each line was read.
func printStderr(w io.Writer, name string, r result) {
	fmt.Fprintf(w, "--- ocr stderr, %s (counted run, exit %d):\n", name, r.exit)
	for _, l := range r.stderr {
		fmt.Fprintf(w, "%8.1f ms  %s\n", ms(l.at), l.line)
	}
	if len(r.git.calls) > 0 {
		fmt.Fprintf(w, "--- git processes ocr spawned, %s (start time):\n", name)
	}
	for _, c := range r.git.calls {
		fmt.Fprintf(w, "%8.1f ms  git %s\n", ms(c.at), c.line)
	}
	for _, b := range r.bad {
		fmt.Fprintf(w, "unexpected request: %s\n", b)
	}
	fmt.Fprintln(w)
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// removeAll removes a temporary directory when the program is done with
// it; a failure only leaves files behind, so it is reported, not fatal.
func removeAll(dir string) {
	if err := os.RemoveAll(dir); err != nil {
		fmt.Fprintln(os.Stderr, "warning: could not remove a temporary directory:", err)
	}
}
