package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/ocr-ci/ocr/anchor/udiff"
	"github.com/ocr-ci/ocr/internal/infra/git"
)

// steps are the measured pipelines.
type steps struct {
	ctx  context.Context
	dir  string
	repo *git.Repo
}

// gitAlone execs git diff directly and collects its output.
func (s *steps) gitAlone() ([]byte, error) {
	return gitDiff(s.ctx, s.dir)
}

// gitDiff runs git diff with internal/infra/git's options.
func gitDiff(ctx context.Context, dir string) ([]byte, error) {
	return runGit(ctx, dir, directArgs...)
}

// directParse is git diff (exec) followed by udiff.Parse.
func (s *steps) directParse() (any, error) {
	diff, err := s.gitAlone()
	if err != nil {
		return nil, err
	}
	return udiff.Parse(diff)
}

// ours is internal/infra/git's Repo.DiffText followed by udiff.ParseString:
// the pipeline ocr runs (the diff is held once, as a string).
func (s *steps) ours() (any, error) {
	diff, err := s.repo.DiffText(s.ctx, "base", "head")
	if err != nil {
		return nil, err
	}
	return udiff.ParseString(diff)
}

// step is one measured pipeline.
type step struct {
	name string
	f    func() (any, error)
}

// report times every step runs times (interleaved, so drift hits all
// alike) and measures memory once, then prints the table.
func report(w io.Writer, s *steps, diff []byte, runs int) error {
	named := []step{
		{"git diff alone (exec)", func() (any, error) { return s.gitAlone() }},
		{"git diff (exec) + Parse", s.directParse},
		{"Repo.DiffText + ParseString (ours)", s.ours},
		{"Parse alone", func() (any, error) { return udiff.Parse(diff) }},
	}
	walls, cpus := make([][]time.Duration, len(named)), make([][]time.Duration, len(named))
	for r := 0; r < runs; r++ {
		for i, n := range named {
			wall, cpu, err := timed(n.f)
			if err != nil {
				return fmt.Errorf("%s: %w", n.name, err)
			}
			walls[i], cpus[i] = append(walls[i], wall), append(cpus[i], cpu)
		}
	}
	fmt.Fprintf(w, "%-26s %9s %6s %9s %6s %10s %6s %10s %6s %10s %6s\n", "step", "wall", "× git", "cpu", "× git",
		"allocated", "× diff", "peak heap", "× diff", "retained", "× diff")
	for i, n := range named {
		m, err := measure(n.f)
		if err != nil {
			return err
		}
		wall, cpu := median(walls[i]), median(cpus[i])
		fmt.Fprintf(w, "%-26s %9v %6.2f %9v %6.2f %s %s %s\n", n.name,
			wall.Round(100*time.Microsecond), ratio(wall, median(walls[0])),
			cpu.Round(100*time.Microsecond), ratio(cpu, median(cpus[0])),
			perDiff(m.allocated, diff), perDiff(m.peak, diff), perDiff(m.retained, diff))
	}
	fmt.Fprintf(w, "\nMedians of %d runs each, interleaved; cpu is user+system time of this process and\n"+
		"its git children. Peak heap: sampled every 100µs above the heap before the step (garbage\n"+
		"not yet collected included). Retained: live after the step and a GC, result kept (for\n"+
		"Parse alone the input diff was live before).\n", runs)
	return nil
}

// ratio is a/b.
func ratio[T ~int64 | ~uint64](a, b T) float64 { return float64(a) / float64(b) }

// perDiff formats n bytes in MB and as a multiple of the diff's size.
func perDiff(n uint64, diff []byte) string {
	return fmt.Sprintf("%7.1f MB %6.2f", mb(n), ratio(n, uint64(len(diff))))
}
