package runner

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ocr-ci/ocr/internal/testkit/gitrepo"

	"github.com/ocr-ci/ocr/internal/app/preview"
	"github.com/ocr-ci/ocr/internal/testkit/llmtest"
	"github.com/ocr-ci/ocr/reporters"
)

// benchTree commits a generated tree of files in dirs directories, sizes
// skewed like a real repository's (many small files, a few large ones,
// directories of very different sizes), and returns the repository.
func benchTree(b *testing.B, files, dirs int) string {
	b.Helper()
	r := struct{ dir string }{b.TempDir()}
	rng := rand.New(rand.NewPCG(42, 7))
	for i := 0; i < files; i++ {
		d := int(float64(dirs) * rng.Float64() * rng.Float64()) // a few large directories
		lines := 5 + int(rng.ExpFloat64()*60)
		p := filepath.Join(r.dir, fmt.Sprintf("mod%03d", d), fmt.Sprintf("file%04d.go", i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		body := fmt.Sprintf("package mod%03d\n\n%s", d, strings.Repeat(fmt.Sprintf("var v%d = %d // a line of code\n", i, i), lines))
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "-A"}, {"commit", "-q", "-m", "tree"}} {
		gitrepo.Run(b, r.dir, args...)
	}
	return r.dir
}

// previewTokens runs a JSON preview and returns the estimated tokens of
// each reviewed file.
func previewTokens(b *testing.B, repo string, args ...string) map[string]int {
	code, out, errs := testEnv{}.run(b, append([]string{"scan", "--repo", repo, "--preview", "--format", "json", "--max-files", "100000"}, args...)...)
	if code != reporters.ExitOK {
		b.Fatalf("exit %d\n%s", code, errs)
	}
	var p preview.Preview
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		b.Fatal(err)
	}
	got := map[string]int{}
	for _, f := range p.Files {
		if f.Reviewed {
			data, _ := os.ReadFile(filepath.Join(repo, f.Path))
			got[f.Path] = len(data) / 4
		}
	}
	return got
}

// BenchmarkScanShards, on a generated tree of 5,000 files in 200
// directories: the balance of N = 2, 4, 8 shards (max/mean of estimated
// tokens), the time of one shard's --preview against the unsharded
// preview, and ocr's own CPU time and allocations for one shard of 4 with
// a model that answers at once (task_done).
//
//	go test ./runner -run '^$' -bench ScanShards -benchtime 3x
func BenchmarkScanShards(b *testing.B) {
	repo := benchTree(b, 5000, 200)
	for _, n := range []int{2, 4, 8} {
		b.Run(fmt.Sprintf("balance/N=%d", n), func(b *testing.B) {
			var loads []int
			for b.Loop() {
				loads = loads[:0]
				for i := 1; i <= n; i++ {
					sum := 0
					for _, t := range previewTokens(b, repo, "--shard", fmt.Sprintf("%d/%d", i, n)) {
						sum += t
					}
					loads = append(loads, sum)
				}
			}
			b.ReportMetric(maxOverMean(loads), "max/mean")
			b.ReportMetric(float64(slices.Max(loads)), "max-tokens")
		})
	}
	for _, shard := range []string{"", "1/4"} {
		args := []string{"scan", "--repo", repo, "--preview", "--max-files", "100000"}
		name := "preview/unsharded"
		if shard != "" {
			args, name = append(args, "--shard", shard), "preview/shard=1of4"
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if code, _, errs := (testEnv{}).run(b, args...); code != reporters.ExitOK {
					b.Fatalf("exit %d\n%s", code, errs)
				}
			}
		})
	}
	for _, shard := range []string{"", "1/4"} {
		name := "run/unsharded"
		if shard != "" {
			name = "run/shard=1of4"
		}
		b.Run(name, func(b *testing.B) { benchScanRun(b, repo, shard) })
	}
}

// benchScanRun scans repo (one shard of it) with a model that ends every
// group at once, and reports ocr's CPU time per run.
func benchScanRun(b *testing.B, repo, shard string) {
	srv := llmtest.New(b)
	srv.SetRecord(false)
	srv.Handle(func(llmtest.Request) llmtest.Answer { return llmtest.Calls(llmtest.Done()) })
	env := testEnv{}
	env.useLLM(srv)
	args := []string{"scan", "--repo", repo, "--no-filter", "--max-files", "100000", "--max-tokens-budget", "1000000000", "--report", "json=" + filepath.Join(b.TempDir(), "r.json")}
	if shard != "" {
		args = append(args, "--shard", shard)
	}
	b.ReportAllocs()
	cpu0 := cpuTime()
	for b.Loop() {
		if code, _, errs := env.run(b, args...); code != reporters.ExitOK {
			b.Fatalf("exit %d\n%s", code, errs)
		}
	}
	b.ReportMetric(float64((cpuTime()-cpu0).Milliseconds())/float64(b.N), "cpu-ms/op")
}

// cpuTime is the process's user + system CPU time so far (ocr's and the
// fake model's, which answers at once; git's child processes are apart).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
