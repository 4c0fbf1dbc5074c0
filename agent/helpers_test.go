package agent

import (
	"bytes"
	"context"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ocr-ci/ocr/internal/testkit/gitrepo"

	"github.com/ocr-ci/ocr/anchor"
	"github.com/ocr-ci/ocr/anchor/udiff"
	"github.com/ocr-ci/ocr/internal/infra/git"
	"github.com/ocr-ci/ocr/internal/infra/llm"
	"github.com/ocr-ci/ocr/internal/testkit/llmtest"
	"github.com/ocr-ci/ocr/tools"
)

// fixture is a real repository with a base and a head commit.
type fixture struct {
	dir   string
	repo  *git.Repo
	input Input
}

// newFixture commits base, then head (files mapped to "" are deleted), and
// builds the agent's Input for every changed file.
func newFixture(t testing.TB, base, head map[string]string) *fixture {
	t.Helper()
	dir := t.TempDir()
	ids := gitrepo.Import(t, dir, fixtureHistory(base, head))
	return openFixture(t, dir, ids[0], ids[1])
}

// fixtureHistory is newFixture's two commits, read from the repository
// through its commits (no work tree).
func fixtureHistory(base, head map[string]string) gitrepo.History {
	headChange := gitrepo.Change{Message: "head", Files: map[string]string{}}
	for p, c := range head {
		if c == "" {
			headChange.Remove = append(headChange.Remove, p)
		} else {
			headChange.Files[p] = c
		}
	}
	return gitrepo.History{Commits: []gitrepo.Change{{Message: "base", Files: base}, headChange}}
}

// calcRepo is the calc fixture's repository and diff, built and read once
// per test binary.
var calcRepo = newCalcTemplate()

// TestMain removes calcRepo after the tests.
func TestMain(m *testing.M) {
	code := m.Run()
	calcRepo.tp.Remove()
	os.Exit(code)
}

// calcTemplate is a template repository with its two commits and the diff
// between them as ocr reads it.
type calcTemplate struct {
	tp         *gitrepo.Template
	base, head string
	diff       []byte
}

func newCalcTemplate() *calcTemplate {
	c := &calcTemplate{}
	c.tp = gitrepo.NewTemplate(func(t testing.TB, dir string) {
		ids := gitrepo.Import(t, dir, fixtureHistory(calcBase, calcHead))
		c.base, c.head = ids[0], ids[1]
		ctx := context.Background()
		repo, err := git.Open(ctx, dir, git.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer closeRepo(t, repo)
		if c.diff, err = repo.Diff(ctx, c.base, c.head); err != nil {
			t.Fatal(err)
		}
	})
	return c
}

// calcFixture is newFixture of calcBase and calcHead, copied from calcRepo.
func calcFixture(t testing.TB) *fixture {
	t.Helper()
	dir := calcRepo.tp.Copy(t)
	return fixtureOf(t, dir, openRepo(t, dir), calcRepo.head, bytes.Clone(calcRepo.diff))
}

// openFixture opens the repository at dir and builds the agent's Input for
// every file changed between base and head.
func openFixture(t testing.TB, dir, base, head string) *fixture {
	t.Helper()
	repo := openRepo(t, dir)
	raw, err := repo.Diff(context.Background(), base, head)
	if err != nil {
		t.Fatal(err)
	}
	return fixtureOf(t, dir, repo, head, raw)
}

// openRepo opens the repository at dir, closed when the test ends.
func openRepo(t testing.TB, dir string) *git.Repo {
	t.Helper()
	repo, err := git.Open(context.Background(), dir, git.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { closeRepo(t, repo) })
	return repo
}

// fixtureOf builds the agent's Input for every file of the diff raw, read
// at head through repo.
func fixtureOf(t testing.TB, dir string, repo *git.Repo, head string, raw []byte) *fixture {
	t.Helper()
	parsed, err := udiff.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{dir: dir, repo: repo}
	f.input = Input{Changes: anchor.NewChangeSet(parsed), Source: tools.RefSource(repo, head), Diffs: splitDiff(raw)}
	for _, pf := range parsed {
		f.input.Files = append(f.input.Files, File{Path: pf.Path(), Diff: f.input.Diffs[pf.Path()]})
	}
	return f
}

// splitDiff cuts a unified diff into per-file texts keyed by new path.
func splitDiff(raw []byte) map[string]string {
	out := map[string]string{}
	for _, part := range bytes.Split(raw, []byte("\ndiff --git ")) {
		s := string(part)
		if !strings.HasPrefix(s, "diff --git ") {
			s = "diff --git " + s
		}
		header, _, _ := strings.Cut(s, "\n")
		fields := strings.Fields(header)
		p := strings.TrimPrefix(fields[len(fields)-1], "b/")
		out[p] = strings.TrimSuffix(s, "\n") + "\n"
	}
	return out
}

// sleepLog records the client's backoff instead of waiting.
type sleepLog struct {
	mu sync.Mutex
	d  []time.Duration
}

func (s *sleepLog) sleep(_ context.Context, d time.Duration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.d = append(s.d, d)
	return nil
}

// client is a real llm.Client against srv that never sleeps.
func client(t testing.TB, srv *llmtest.Server, log *sleepLog) *llm.Client {
	t.Helper()
	if log == nil {
		log = &sleepLog{}
	}
	c, err := llm.New(srv.Config(), llm.Options{MaxAttempts: 3, Sleep: log.sleep})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Markers that tell the conversations apart in scripts.
const (
	mainMark  = "You are a senior engineer"
	planMark  = "You are planning"
	relocMark = "You locate code"
)

// calcBase and calcHead are the default fixture: a division without a zero check.
var (
	calcBase = map[string]string{"svc/calc.go": "package svc\n\n// Div divides.\nfunc Div(a, b int) int {\n\treturn a\n}\n"}
	calcHead = map[string]string{"svc/calc.go": "package svc\n\n// Div divides.\nfunc Div(a, b int) int {\n\treturn a / b\n}\n"}
)

func copyMap(m map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range m {
		out[k] = v
	}
	return out
}

// reviewWith runs one review of the calc fixture (or f) against scripts.
func reviewWith(t *testing.T, f *fixture, cfg Config, scripts ...llmtest.Script) (Output, *llmtest.Server) {
	t.Helper()
	if f == nil {
		f = calcFixture(t)
	}
	srv := llmtest.New(t, scripts...)
	var progress strings.Builder
	cfg.Progress = &progress
	out := New(cfg, client(t, srv, nil), tools.Default()).Review(context.Background(), f.input)
	t.Logf("progress:\n%s", progress.String())
	return out, srv
}

// closeRepo closes repo at the end of a test; a failure fails the test.
func closeRepo(t testing.TB, repo *git.Repo) {
	t.Helper()
	if err := repo.Close(); err != nil {
		t.Error(err)
	}
}
