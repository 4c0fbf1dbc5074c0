package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// scenario is one ocr invocation.
type scenario struct {
	name    string
	shallow bool // a depth-1 clone: ocr must fetch the base and deepen
	preview bool // --preview: selection only, no model
	counted bool // git shim on PATH and GIT_TRACE2_EVENT set
}

// stamped is one stderr line and when it was read, from process start.
type stamped struct {
	at   time.Duration
	line string
}

// result is what one invocation measured.
type result struct {
	toFirst  time.Duration // process start → first model request (0: none)
	wall     time.Duration
	exit     int
	requests int
	bad      []string
	stderr   []stamped
	stdout   int // bytes
	git      gitCount
}

// env is what every run shares.
type env struct {
	tmp, ocr string
	origin   origin
	shim     shim
	runs     int // invocations so far, to name clone directories
}

// run clones afresh and runs ocr once for sc.
func (e *env) run(ctx context.Context, sc scenario) (result, error) {
	e.runs++
	work := filepath.Join(e.tmp, fmt.Sprintf("work%02d", e.runs))
	if err := e.origin.clone(ctx, work, sc.shallow); err != nil {
		return result{}, err
	}
	defer removeAll(work)
	fake := &fakeLLM{}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	trace := filepath.Join(e.tmp, fmt.Sprintf("trace%02d.json", e.runs))
	if err := os.Remove(e.shim.log); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return result{}, fmt.Errorf("reset the shim log: %w", err)
	}
	cmd := exec.CommandContext(ctx, e.ocr, e.args(work, sc)...)
	cmd.Env = e.environ(srv.URL+"/v1", sc, trace)
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	errPipe, err := cmd.StderrPipe()
	if err != nil {
		return result{}, err
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return result{}, err
	}
	lines := <-stampLines(errPipe, start) // before Wait, which closes the pipe
	err = cmd.Wait()
	r := result{wall: time.Since(start), stderr: lines, stdout: stdout.Len()}
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		r.exit = exit.ExitCode()
	} else if err != nil {
		return r, err
	}
	first, n, bad := fake.stats()
	if !first.IsZero() {
		r.toFirst = first.Sub(start)
	}
	r.requests, r.bad = n, bad
	if sc.counted {
		r.git, err = countGit(e.shim.log, trace, start)
	}
	return r, err
}

// args is the command line CI would run: the pull request's SHAs.
func (e *env) args(work string, sc scenario) []string {
	args := []string{"review", "--repo", work, "--from", e.origin.base, "--to", e.origin.head, "--format", "json"}
	if sc.preview {
		return append(args, "--preview")
	}
	return append(args, "--no-filter")
}

// environ is the process environment without anything ocr would take for
// a CI system or an endpoint, plus the fake endpoint.
func (e *env) environ(url string, sc scenario, trace string) []string {
	var out []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch {
		case name == "CI", strings.HasPrefix(name, "CI_"), strings.HasPrefix(name, "GITHUB_"),
			strings.HasPrefix(name, "GITLAB_"), strings.HasPrefix(name, "OCR_"), strings.HasPrefix(name, "OPENAI_"),
			strings.HasPrefix(name, "GIT_TRACE"), name == "RUNNER_TEMP":
		case name == "PATH" && sc.counted:
			out = append(out, "PATH="+e.shim.dir+string(os.PathListSeparator)+strings.TrimPrefix(kv, "PATH="))
		default:
			out = append(out, kv)
		}
	}
	out = append(out, gitEnv...)
	out = append(out, "OCR_LLM_URL="+url, "OCR_LLM_TOKEN=bench-token", "OCR_LLM_MODEL=bench-model")
	if sc.counted {
		out = append(out, "GIT_TRACE2_EVENT="+trace)
	}
	return out
}

// stampLines reads r line by line, stamping each with the time since start;
// the channel yields all lines at EOF.
func stampLines(r io.Reader, start time.Time) <-chan []stamped {
	ch := make(chan []stamped, 1)
	go func() {
		var out []stamped
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 64<<10), 4<<20)
		for sc.Scan() {
			out = append(out, stamped{at: time.Since(start), line: sc.Text()})
		}
		ch <- out
	}()
	return ch
}
