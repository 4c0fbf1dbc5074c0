package tools

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ocr-ci/ocr/internal/infra/git"
)

// Benchmarks on two repositories, built once per `go test` run in a
// temporary directory (only when a benchmark asks for them): a generated
// one of 50,000 files, and one made from $(go env GOROOT)/src. Each
// comparison runs both sides in the same run and reports their ratio:
//
//	go test ./tools -run '^$' -bench . -benchtime 2s

// benchRepo is a repository built for the benchmarks.
type benchRepo struct {
	dir, head string
	paths     []string // files to read, spread over the tree
}

var (
	benchOnce  sync.Map // name → *sync.Once
	benchRepos sync.Map // name → *benchRepo
	benchMu    sync.Mutex
	benchDir   string // removed by TestMain after the run
)

// benchTmp is the run's temporary directory for benchmark repositories.
func benchTmp() string {
	benchMu.Lock()
	defer benchMu.Unlock()
	if benchDir == "" {
		dir, err := os.MkdirTemp("", "ocr-tools-bench-")
		if err != nil {
			panic(err)
		}
		benchDir = dir
	}
	return benchDir
}

// cleanBench removes the benchmark repositories.
func cleanBench() {
	benchMu.Lock()
	defer benchMu.Unlock()
	if benchDir != "" {
		if err := os.RemoveAll(benchDir); err != nil {
			fmt.Fprintln(os.Stderr, "remove the benchmark repositories:", err)
		}
	}
}

// cachedRepo builds the named repository on first use.
func cachedRepo(b *testing.B, name string, gen func(w *bufio.Writer) error) *benchRepo {
	once, _ := benchOnce.LoadOrStore(name, &sync.Once{})
	once.(*sync.Once).Do(func() {
		r, err := importRepo(filepath.Join(benchTmp(), name), gen)
		if err != nil {
			b.Fatalf("building the %s repository: %v", name, err)
		}
		benchRepos.Store(name, r)
	})
	r, ok := benchRepos.Load(name)
	if !ok {
		b.Fatalf("the %s repository could not be built", name)
	}
	return r.(*benchRepo)
}

// importRepo creates a repository whose one commit holds what gen writes
// as `git fast-import` file commands; nothing is checked out.
func importRepo(dir string, gen func(w *bufio.Writer) error) (*benchRepo, error) {
	if out, err := exec.CommandContext(context.Background(), "git", "-c", "init.defaultBranch=main", "init", "-q", dir).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("git init: %w: %s", err, out)
	}
	cmd := exec.CommandContext(context.Background(), "git", "fast-import", "--quiet")
	cmd.Dir = dir
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	w := bufio.NewWriterSize(in, 1<<20)
	_, genErr := w.WriteString("commit refs/heads/main\ncommitter Bench <bench@example.com> 1767225600 +0000\ndata 5\nbench\n")
	if genErr == nil {
		genErr = gen(w)
	}
	if genErr == nil {
		genErr = w.Flush()
	}
	if err := in.Close(); genErr == nil {
		genErr = err
	}
	if err := cmd.Wait(); err != nil || genErr != nil {
		return nil, fmt.Errorf("git fast-import: %w", errors.Join(err, genErr))
	}
	head, err := exec.CommandContext(context.Background(), "git", "-C", dir, "rev-parse", "main").Output()
	if err != nil {
		return nil, err
	}
	list, err := exec.CommandContext(context.Background(), "git", "-C", dir, "ls-tree", "-r", "--name-only", "main").Output()
	if err != nil {
		return nil, err
	}
	all := strings.Split(strings.TrimSpace(string(list)), "\n")
	r := &benchRepo{dir: dir, head: strings.TrimSpace(string(head))}
	for i := 0; i < len(all); i += max(1, len(all)/300) {
		r.paths = append(r.paths, all[i])
	}
	return r, nil
}

// writeBlob writes one inline file command. A bufio.Writer keeps its first
// error and returns it from every later call, so the caller's Flush reports
// a failed write here.
func writeBlob(w *bufio.Writer, path string, data []byte) {
	_, _ = fmt.Fprintf(w, "M 100644 inline %s\ndata %d\n", path, len(data))
	_, _ = w.Write(data)
	_ = w.WriteByte('\n')
}

// genFiles is the generated repository: 50,000 small Go files in 500
// directories; every 50th mentions "needle".
func genFiles(w *bufio.Writer) error {
	for i := 0; i < 50_000; i++ {
		var body strings.Builder
		fmt.Fprintf(&body, "package p%03d\n\n// File %d.\n", i/100, i)
		for j := 0; j < 30; j++ {
			fmt.Fprintf(&body, "func F%d_%d(x int) int { return x + %d }\n", i, j, j)
		}
		if i%50 == 0 {
			body.WriteString("// needle\n")
		}
		writeBlob(w, fmt.Sprintf("mod%02d/pkg%03d/handler_%05d.go", i/5000, i/100, i), []byte(body.String()))
	}
	return nil
}

// gorootFiles copies $(go env GOROOT)/src.
func gorootFiles(w *bufio.Writer) error {
	out, err := exec.CommandContext(context.Background(), "go", "env", "GOROOT").Output()
	if err != nil {
		return err
	}
	root := filepath.Join(strings.TrimSpace(string(out)), "src")
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if strings.ContainsAny(rel, "\"\n") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		writeBlob(w, filepath.ToSlash(rel), data)
		return nil
	})
}

// benchSets are the two repositories and a search that matches in each.
var benchSets = []struct {
	name, search string
	gen          func(*bufio.Writer) error
}{
	{"generated", "needle", genFiles},
	{"goroot", "func main", gorootFiles},
}

// openBench opens a benchmark repository and its RefSource.
func openBench(b *testing.B, r *benchRepo) (*git.Repo, Source) {
	repo, err := git.Open(context.Background(), r.dir, git.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { closeRepo(b, repo) })
	return repo, RefSource(repo, r.head)
}

// ratio times tool and direct in alternating blocks of block operations
// in the same loop, so that noise on a shared machine hits both sides
// alike while each side stays warm within its block, and reports each
// side's time per operation and direct/tool: how many times faster the
// tool is.
func ratio(b *testing.B, block int, tool, direct func() error) {
	var toolT, directT time.Duration
	n := 0
	for b.Loop() {
		start := time.Now()
		for range block {
			if err := tool(); err != nil {
				b.Fatal(err)
			}
		}
		mid := time.Now()
		for range block {
			if err := direct(); err != nil {
				b.Fatal(err)
			}
		}
		toolT += mid.Sub(start)
		directT += time.Since(mid)
		n += block
	}
	b.ReportMetric(float64(toolT.Microseconds())/float64(n), "tool-µs/op")
	b.ReportMetric(float64(directT.Microseconds())/float64(n), "direct-µs/op")
	b.ReportMetric(float64(directT)/float64(toolT), "direct/tool")
}
