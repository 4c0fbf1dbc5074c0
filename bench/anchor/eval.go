package main

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"sync"
	"syscall"
	"time"

	"github.com/ocr-ci/ocr/anchor"
	"github.com/ocr-ci/ocr/review"
)

// stats are the figures of one perturbation class.
type stats struct {
	name                                         string
	n, exact, sideOK, wrongSide, falseIn, unanch int
	perSec                                       float64
	naiveExact, naiveWrongSide, naiveOffDiff     int
	naiveUnanch                                  int
	naivePerSec                                  float64
	methods                                      map[review.Method]int
	misses                                       []string
}

func (q *query) resolve(ctx context.Context) review.Location {
	path := q.path
	if path == "" {
		path = q.s.file.Path()
	}
	return anchor.Resolve(ctx, anchor.Query{Path: path, Code: q.code, LineHint: q.hint}, q.s.d.cs, q.s.d.opts)
}

// naive runs OCR's strategy on the file the comment is filed on.
func (q *query) naive() naiveResult {
	f := q.s.file
	if q.path != "" {
		for i := range q.s.d.files {
			if q.s.d.files[i].Path() == q.path {
				f = &q.s.d.files[i]
			}
		}
	}
	return naive(f, q.s.d.newFiles[f.NewPath], q.code)
}

// evaluate scores every query, then times passes of at least minRuns
// resolutions over them (the best of three, since other processes share
// the machine).
func evaluate(ctx context.Context, name string, qs []query, minRuns int) stats {
	st := stats{name: name, n: len(qs), methods: map[review.Method]int{}}
	for i := range qs {
		st.score(&qs[i], qs[i].resolve(ctx))
		st.scoreNaive(&qs[i], qs[i].naive())
	}
	if len(qs) == 0 {
		return st
	}
	reps := max(1, minRuns/len(qs))
	st.perSec = rate(len(qs)*reps, func() {
		for r := 0; r < reps; r++ {
			for i := range qs {
				qs[i].resolve(ctx)
			}
		}
	})
	st.naivePerSec = rate(len(qs)*reps, func() {
		for r := 0; r < reps; r++ {
			for i := range qs {
				qs[i].naive()
			}
		}
	})
	return st
}

func (st *stats) score(q *query, loc review.Location) {
	s := q.s
	st.methods[loc.Method]++
	if loc.FileLevel() {
		st.unanch++
		st.miss(q, loc)
		return
	}
	if loc.Side == s.side && loc.Path == s.file.Path() {
		st.sideOK++
	} else if loc.Side != s.side {
		st.wrongSide++
	}
	if loc.InHunk && !inHunk(s.d, loc.Path, loc.Side, loc.StartLine, loc.EndLine) {
		st.falseIn++
	}
	if loc.Path == s.file.Path() && loc.Side == s.side && loc.StartLine == q.start && loc.EndLine == q.end {
		st.exact++
		return
	}
	st.miss(q, loc)
}

func (st *stats) miss(q *query, loc review.Location) {
	if len(st.misses) < 5 {
		st.misses = append(st.misses, fmt.Sprintf("%s %s: want %s %d-%d, got %s %s %d-%d %s %v\n    code %q",
			q.s.d.name, q.s.file.Path(), q.s.side, q.start, q.end, loc.Path, loc.Side, loc.StartLine, loc.EndLine, loc.Method, loc.Candidates, q.code))
	}
}

// scoreNaive scores OCR's strategy: its numbers are read as new-file lines
// and posted inline whether or not they lie in the diff.
func (st *stats) scoreNaive(q *query, r naiveResult) {
	if r.start == 0 {
		st.naiveUnanch++
		return
	}
	if q.s.side == review.SideOld {
		st.naiveWrongSide++
	}
	if q.s.side == review.SideNew && r.start == q.start && r.end == q.end {
		st.naiveExact++
	}
	if !inHunk(q.s.d, q.s.file.Path(), review.SideNew, r.start, r.end) {
		st.naiveOffDiff++
	}
}

// inHunk is the benchmark's own check, from the hunk headers, that
// start..end lies in one hunk of path on side.
func inHunk(d *diffCase, path string, side review.Side, start, end int) bool {
	for _, f := range d.files {
		if f.Path() != path {
			continue
		}
		for _, h := range f.Hunks {
			s, n := h.NewStart, h.NewLines
			if side == review.SideOld {
				s, n = h.OldStart, h.OldLines
			}
			if start >= s && end <= s+n-1 {
				return true
			}
		}
	}
	return false
}

// rate is n divided by the CPU time of the fastest of three runs of f.
// CPU time, not wall time: other processes share this machine, and the
// question is what one core does.
func rate(n int, f func()) float64 {
	best := time.Duration(math.MaxInt64)
	for range 3 {
		// Process CPU time counts the garbage collector's workers too: collect
		// what earlier phases left, so their garbage is not billed to f.
		runtime.GC()
		t := cpuTime()
		f()
		best = min(best, cpuTime()-t)
	}
	return float64(n) / max(best.Seconds(), 1e-9)
}

// cpuTime is the user and system time this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// wallRate is n divided by the wall time of f.
func wallRate(n int, f func()) float64 {
	t := time.Now()
	f()
	return float64(n) / time.Since(t).Seconds()
}

// parallelRate resolves every query with workers goroutines, as the
// agent's comment pool does.
func parallelRate(ctx context.Context, qs []query, workers, minRuns int) float64 {
	reps := max(1, minRuns/max(1, len(qs)))
	return wallRate(len(qs)*reps, func() {
		var wg sync.WaitGroup
		for w := 0; w < workers; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for r := 0; r < reps; r++ {
					for i := w; i < len(qs); i += workers {
						qs[i].resolve(ctx)
					}
				}
			}()
		}
		wg.Wait()
	})
}

func reviewMethod(s string) review.Method { return review.Method(s) }
