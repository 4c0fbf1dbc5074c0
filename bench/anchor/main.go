// Command anchor measures how accurately anchor.Resolve places quoted code,
// on snippets sampled from real history with known true lines, under the
// ways models mangle quotes. It compares with OCR's naive strategy (first
// occurrence, trimmed lines, no side).
//
//	go run ./bench/anchor -short            # CI: < 20 s
//	go run ./bench/anchor -repo ../other    # add repositories
//
// The corpus is the oldest commits of this repository (by commit date, so
// new commits do not move it), of a synthetic repository
// built in a temporary directory from real GOROOT (and system Python)
// files with realistic edits, and of any -repo. From every hunk it takes
// 1–4 consecutive lines of each added, context and deleted run, with the
// true side and lines known. Rows: each perturbation of the snippets whose
// text is unique in the file; the later steps (wrong-path: filed on another
// file of the diff; misquote: one word changed; outside-hunks: unchanged
// code); snippets whose text occurs more than once, with an exact hint,
// a hint up to 3 lines off, and none.
//
// The re-send rows (issue 13) play a model that quotes ambiguous single
// lines and sends them again with neighbouring lines (resend.go): the
// agent no longer asks for that (it asks which place in a side request),
// but a re-send the model makes of its own accord still goes through
// anchor.Focus, which these rows measure.
//
// It exits 1 when a target of issue 4 or 13 is missed.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"runtime"
	"runtime/pprof"
	"strings"
	"time"

	"github.com/ocr-ci/ocr/anchor/udiff"
)

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
}

// config is the command line.
type config struct {
	short   bool
	self    string
	repos   []string
	seed    uint64
	verbose bool
	profile string
	class   string
}

func parseFlags(args []string, stderr io.Writer) (config, error) {
	var c config
	fs := flag.NewFlagSet("anchor", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.BoolVar(&c.short, "short", false, "small corpus for CI (under 20 s)")
	fs.StringVar(&c.self, "self", ".", "this project's repository (sampled too)")
	fs.Func("repo", "another repository to sample (repeatable)", func(s string) error {
		c.repos = append(c.repos, s)
		return nil
	})
	fs.Uint64Var(&c.seed, "seed", 1, "random seed")
	fs.BoolVar(&c.verbose, "v", false, "print the first misses of each class")
	fs.StringVar(&c.profile, "cpuprofile", "", "write a CPU profile of the resolutions to this file")
	fs.StringVar(&c.class, "class", "", "run only the classes whose name contains this")
	return c, fs.Parse(args)
}

// sizes scale the corpus.
type sizes struct {
	synthFiles, synthCommits, commits, unique, ambiguous, runs int
}

func (c config) sizes() sizes {
	if c.short {
		return sizes{synthFiles: 24, synthCommits: 200, commits: 250, unique: 800, ambiguous: 500, runs: 2000}
	}
	return sizes{synthFiles: 80, synthCommits: 1500, commits: 2000, unique: 6000, ambiguous: 3000, runs: 50000}
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	c, err := parseFlags(args, stderr)
	if err != nil {
		return 2
	}
	if err := bench(ctx, c, stdout); err != nil {
		fmt.Fprintf(stderr, "bench/anchor: %v\n", err)
		return 1
	}
	return 0
}

func bench(ctx context.Context, c config, stdout io.Writer) error {
	sz := c.sizes()
	rng := rand.New(rand.NewPCG(c.seed, 4))
	t0 := time.Now()
	dir, err := os.MkdirTemp("", "bench-anchor-")
	if err != nil {
		return fmt.Errorf("create temp repository: %w", err)
	}
	defer removeAll(dir)
	root, err := goroot(ctx)
	if err != nil {
		return err
	}
	if err := synthRepo(ctx, dir, synthConfig{files: sz.synthFiles, commits: sz.synthCommits, goroot: root, rng: rng}); err != nil {
		return fmt.Errorf("build synthetic repository: %w", err)
	}
	t1 := time.Now()
	var cases []*diffCase
	for _, repo := range append([]string{c.self, dir}, c.repos...) {
		cs, err := loadRepo(ctx, repo, sz.commits)
		if err != nil {
			return err
		}
		cases = append(cases, cs...)
	}
	t2 := time.Now()
	unique, ambiguous := collect(rng, cases)
	unique, ambiguous = shuffle(rng, unique, sz.unique), shuffle(rng, ambiguous, sz.ambiguous)
	fmt.Fprintf(stdout, "corpus: %d diffs, %d unique and %d ambiguous samples (seed %d, GOMAXPROCS %d)\n",
		len(cases), len(unique), len(ambiguous), c.seed, runtime.GOMAXPROCS(0))
	fmt.Fprintf(stdout, "setup: synthetic repository %v, history %v, sampling %v\n\n",
		t1.Sub(t0).Round(time.Millisecond), t2.Sub(t1).Round(time.Millisecond), time.Since(t2).Round(time.Millisecond))
	stop, err := startProfile(c.profile)
	if err != nil {
		return err
	}
	defer stop()
	var all []stats
	var every []query
	for _, cl := range classes(rng, cases, unique, ambiguous, sz.unique) {
		if c.class != "" && !strings.Contains(cl.name, c.class) {
			continue
		}
		all = append(all, evaluate(ctx, cl.name, cl.qs, sz.runs))
		every = append(every, cl.qs...)
	}
	par := parallelRate(ctx, every, runtime.GOMAXPROCS(0), sz.runs)
	printTable(stdout, all, par, c.verbose)
	missed := checkTargets(all)
	if c.class == "" || strings.Contains(resendClass, c.class) {
		rs := resendRows(ctx, c.seed, cases, sz.ambiguous)
		printResend(stdout, rs)
		missed = append(missed, resendTargets(rs[0], c.short)...)
	}
	if len(missed) > 0 {
		return fmt.Errorf("targets missed:\n  %s", strings.Join(missed, "\n  "))
	}
	fmt.Fprintln(stdout, "\nall targets met")
	return nil
}

// resendClass is the name --class matches for the re-send rows.
const resendClass = "re-send"

// resendRows samples and runs the re-send rows with their own random
// source, so the rows above stay as they were.
func resendRows(ctx context.Context, seed uint64, cases []*diffCase, n int) []resendStats {
	rng := rand.New(rand.NewPCG(seed, 13))
	unique, ambiguous := collect(rng, cases)
	samples := shuffle(rng, oneLineAmbiguous(cases), n)
	return []resendStats{evaluateResend(ctx, rng, samples, append(unique, ambiguous...), false),
		evaluateResend(ctx, rng, samples, nil, true)}
}

// class is one row of the table.
type class struct {
	name string
	qs   []query
}

// classes builds the queries of every row: the perturbations of unique
// snippets, the later resolution steps, then the ambiguous snippets.
func classes(rng *rand.Rand, cases []*diffCase, unique, ambiguous []sample, n int) []class {
	var out []class
	for _, p := range append(perturbations, perturbation{"wrong-path", wrongPath}, perturbation{"misquote", misquote}) {
		out = append(out, class{p.name, apply(rng, p, unique)})
	}
	outside := shuffle(rng, outsideSamples(rng, cases), n)
	out = append(out, class{"outside-hunks", apply(rng, perturbations[0], outside)})
	for _, a := range ambiguousClasses {
		out = append(out, class{a.name, ambiguousQueries(rng, ambiguous, a.noise, a.added)})
	}
	return out
}

func apply(rng *rand.Rand, p perturbation, samples []sample) []query {
	var qs []query
	for i := range samples {
		if q, ok := p.apply(rng, &samples[i]); ok {
			qs = append(qs, q)
		}
	}
	return qs
}

// ambiguousClasses quote text that occurs more than once: with the line
// the model saw (file_read numbers), with a guess up to 3 lines off, and
// with no hint at all (all samples, and those meant for added lines, which
// is what review comments are mostly about). Only the first has a target.
var ambiguousClasses = []struct {
	name  string
	noise int // -1: no hint
	added bool
}{{"ambiguous+hint", 0, false}, {"ambiguous+hint±3", 3, false}, {"ambiguous-nohint", -1, false}, {"ambig-nohint-added", -1, true}}

func ambiguousQueries(rng *rand.Rand, samples []sample, noise int, added bool) []query {
	var qs []query
	for i := range samples {
		if added && samples[i].kind != udiff.Added {
			continue
		}
		q := plain(&samples[i], texts(samples[i].lines))
		if noise >= 0 {
			q.hint = max(1, samples[i].start+rng.IntN(2*noise+1)-noise)
		}
		qs = append(qs, q)
	}
	return qs
}

func shuffle(rng *rand.Rand, s []sample, n int) []sample {
	rng.Shuffle(len(s), func(i, j int) { s[i], s[j] = s[j], s[i] })
	return s[:min(n, len(s))]
}

// startProfile starts CPU profiling into path ("" = off).
func startProfile(path string) (func(), error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("create profile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		_ = f.Close() // the profile failed already; that is the error to report
		return nil, fmt.Errorf("start profile: %w", err)
	}
	return func() {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			fmt.Fprintln(os.Stderr, "warning: could not write the CPU profile:", err)
		}
	}, nil
}

// goroot is the Go tree the synthetic corpus samples its files from.
func goroot(ctx context.Context) (string, error) {
	out, err := exec.CommandContext(ctx, "go", "env", "GOROOT").Output()
	if err != nil {
		return "", fmt.Errorf("could not find the Go tree the corpus is sampled from (go env GOROOT): %w; run the benchmark with the go command on PATH", err)
	}
	root := strings.TrimSpace(string(out))
	if root == "" {
		return "", errors.New("go env GOROOT printed nothing: the corpus has no Go tree to sample from")
	}
	return root, nil
}

// removeAll removes a temporary directory when the program is done with
// it; a failure only leaves files behind, so it is reported, not fatal.
func removeAll(dir string) {
	if err := os.RemoveAll(dir); err != nil {
		fmt.Fprintln(os.Stderr, "warning: could not remove a temporary directory:", err)
	}
}
