package runner

import (
	"bytes"
	"context"
	"os"
	"testing"
	"time"

	"github.com/ocr-ci/ocr/internal/testkit/gitrepo"

	"github.com/ocr-ci/ocr/internal/app/config"
	"github.com/ocr-ci/ocr/internal/testkit/llmtest"
)

// testRepo is a real git repository in a temp dir, made with the test
// kit's one git helper.
type testRepo struct {
	t   *testing.T
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

// run runs the CLI in-process and returns exit code, stdout and stderr.
func run(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	c := &Command{Stdout: &out, Stderr: &errb, sleep: noSleep, LookupEnv: os.LookupEnv}
	code := c.Main(context.Background(), append([]string{"ocr"}, args...))
	return code, out.String(), errb.String()
}

// clearCI removes CI variables of the machine running the tests.
func clearCI(t *testing.T) {
	for _, k := range []string{"GITHUB_ACTIONS", "GITLAB_CI", "OCR_FROM", "OCR_TO", "OCR_COMMIT", "OCR_REPO", "OCR_REPORTS", "OCR_FORMAT"} {
		t.Setenv(k, "")
		if err := os.Unsetenv(k); err != nil {
			t.Fatal(err)
		}
	}
}

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
	c := &Command{Stdout: &out, Stderr: &errb, sleep: noSleep, LookupEnv: config.MapLookup(e)}
	code := c.Main(context.Background(), append([]string{"ocr"}, args...))
	return code, out.String(), errb.String()
}

// useLLM points the LLM configuration at a scripted server.
func (e testEnv) useLLM(srv *llmtest.Server) {
	e["OCR_LLM_URL"], e["OCR_LLM_TOKEN"], e["OCR_LLM_MODEL"] = srv.URL, llmtest.Token, llmtest.Model
}
