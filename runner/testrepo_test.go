package runner

import (
	"bytes"
	"context"
	"maps"
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

// perTest holds what each test set for the commands it runs, by test
// name: variables (setVar) and a working directory (workIn). A subtest sees
// its parents' settings too; the process sees none of them (no t.Setenv, no
// t.Chdir), so tests run in parallel. Nothing of the machine's environment
// is seen.
var perTest = struct {
	sync.Mutex
	m map[string]*testSettings
}{m: map[string]*testSettings{}}

// testSettings is what one test set.
type testSettings struct {
	env testEnv
	dir string
}

// ownSettings is t's own settings, made on first use and dropped when t
// ends; the caller holds perTest's lock.
func ownSettings(t testing.TB) *testSettings {
	name := t.Name()
	s, ok := perTest.m[name]
	if !ok {
		s = &testSettings{env: testEnv{}}
		perTest.m[name] = s
		t.Cleanup(func() {
			perTest.Lock()
			defer perTest.Unlock()
			delete(perTest.m, name)
		})
	}
	return s
}

// lineage is the settings of t's outermost parent test first, t's last;
// the caller holds perTest's lock.
func lineage(t testing.TB) []*testSettings {
	var out []*testSettings
	parts := strings.Split(t.Name(), "/")
	for i := range parts {
		if s, ok := perTest.m[strings.Join(parts[:i+1], "/")]; ok {
			out = append(out, s)
		}
	}
	return out
}

// setVar sets k=v in t's environment.
func setVar(t testing.TB, k, v string) {
	perTest.Lock()
	defer perTest.Unlock()
	ownSettings(t).env[k] = v
}

// workIn makes dir the working directory of t's commands and its
// subtests' (Command.Dir, as t.Chdir would without changing the process's).
func workIn(t testing.TB, dir string) {
	perTest.Lock()
	defer perTest.Unlock()
	ownSettings(t).dir = dir
}

// envOf is t's environment: what its parent tests set, then what it set.
func envOf(t testing.TB) testEnv {
	perTest.Lock()
	defer perTest.Unlock()
	out := testEnv{}
	for _, s := range lineage(t) {
		maps.Copy(out, s.env)
	}
	return out
}

// dirOf is t's working directory (workIn): its own, else its nearest
// parent test's; "" (the process's) when none was set.
func dirOf(t testing.TB) string {
	perTest.Lock()
	defer perTest.Unlock()
	dir := ""
	for _, s := range lineage(t) {
		if s.dir != "" {
			dir = s.dir
		}
	}
	return dir
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
