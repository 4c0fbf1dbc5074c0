package runner

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ocr-ci/ocr/internal/testkit/gitrepo"

	"github.com/ocr-ci/ocr/internal/app/config"
	"github.com/ocr-ci/ocr/internal/testkit/llmtest"
)

// testRepo is a real git repository in a temp dir, made with the test
// kit's one git helper.
type testRepo struct {
	t   testing.TB
	dir string
}

func newTestRepo(t *testing.T) *testRepo {
	t.Helper()
	return &testRepo{t: t, dir: gitrepo.Init(t)}
}

// git runs git in the repository (internal/testkit/gitrepo).
func (r *testRepo) git(args ...string) string {
	r.t.Helper()
	return gitrepo.Run(r.t, r.dir, args...)
}

func (r *testRepo) write(path, content string) {
	r.t.Helper()
	gitrepo.WriteFiles(r.t, r.dir, map[string]string{path: content})
}

func (r *testRepo) commit(msg string) string {
	r.t.Helper()
	return gitrepo.Commit(r.t, r.dir, msg)
}

// run runs the CLI in-process with t's environment (setVar) and returns
// exit code, stdout and stderr.
func run(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	c := &Command{Stdout: &out, Stderr: &errb, sleep: noSleep, LookupEnv: envOf(t).lookup, Dir: dirOf(t)}
	code := c.Main(context.Background(), append([]string{"ocr"}, args...))
	return code, out.String(), errb.String()
}

// dirs are the tests' working directories, by test name: where a test's
// commands start relative paths (Command.Dir), as t.Chdir would without
// changing the process's directory, so tests run in parallel.
var dirs = struct {
	sync.Mutex
	m map[string]string
}{m: map[string]string{}}

// workIn makes dir the working directory of t's commands and its
// subtests'.
func workIn(t testing.TB, dir string) {
	dirs.Lock()
	defer dirs.Unlock()
	name := t.Name()
	if _, ok := dirs.m[name]; !ok {
		t.Cleanup(func() {
			dirs.Lock()
			defer dirs.Unlock()
			delete(dirs.m, name)
		})
	}
	dirs.m[name] = dir
}

// dirOf is t's working directory (workIn): its own, else its nearest
// parent test's; "" (the process's) when none was set.
func dirOf(t testing.TB) string {
	dirs.Lock()
	defer dirs.Unlock()
	parts := strings.Split(t.Name(), "/")
	for i := len(parts); i > 0; i-- {
		if d, ok := dirs.m[strings.Join(parts[:i], "/")]; ok {
			return d
		}
	}
	return ""
}

// envs are the tests' environments, by test name: a variable a test sets
// (setVar) is seen by the command it runs and by its subtests, never by the
// process, so no test changes the environment of another and tests run in
// parallel. Nothing of the machine's environment is seen.
var envs = struct {
	sync.Mutex
	m map[string]testEnv
}{m: map[string]testEnv{}}

// setVar sets k=v in t's environment.
func setVar(t testing.TB, k, v string) {
	envs.Lock()
	defer envs.Unlock()
	name := t.Name()
	e, ok := envs.m[name]
	if !ok {
		e = testEnv{}
		envs.m[name] = e
		t.Cleanup(func() {
			envs.Lock()
			defer envs.Unlock()
			delete(envs.m, name)
		})
	}
	e[k] = v
}

// envOf is t's environment: what its parent tests set, then what it set.
func envOf(t testing.TB) testEnv {
	envs.Lock()
	defer envs.Unlock()
	out := testEnv{}
	parts := strings.Split(t.Name(), "/")
	for i := range parts {
		for k, v := range envs.m[strings.Join(parts[:i+1], "/")] {
			out[k] = v
		}
	}
	return out
}

// lookup reads the environment e, as os.LookupEnv reads the process's.
func (e testEnv) lookup(k string) (string, bool) { return config.MapLookup(e)(k) }

// noSleep makes the posters' waits instant; tests assert the waits through
// the fakes' call records, not the clock.
func noSleep(ctx context.Context, _ time.Duration) error { return ctx.Err() }

// testEnv is the environment a test gives the command through its lookup:
// no t.Setenv, so the test can run in parallel.
type testEnv map[string]string

func (e testEnv) set(k, v string) { e[k] = v }

// run runs the CLI in-process with this environment only.
func (e testEnv) run(t testing.TB, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	c := &Command{Stdout: &out, Stderr: &errb, sleep: noSleep, LookupEnv: config.MapLookup(e), Dir: dirOf(t)}
	code := c.Main(context.Background(), append([]string{"ocr"}, args...))
	return code, out.String(), errb.String()
}

// useLLM points the LLM configuration at a scripted server.
func (e testEnv) useLLM(srv *llmtest.Server) {
	e["OCR_LLM_URL"], e["OCR_LLM_TOKEN"], e["OCR_LLM_MODEL"] = srv.URL, llmtest.Token, llmtest.Model
}
