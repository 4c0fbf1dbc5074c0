package incremental

import (
	"context"
	"testing"

	"github.com/ocr-ci/ocr/internal/infra/git"
	"github.com/ocr-ci/ocr/internal/testkit/gitrepo"
)

// testRepo is a real git repository in a temporary directory, run through
// the test kit's gitrepo (isolated from the machine's configuration).
type testRepo struct {
	t   *testing.T
	dir string
}

func newTestRepo(t *testing.T) *testRepo {
	t.Helper()
	return &testRepo{t: t, dir: gitrepo.Init(t)}
}

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

// open opens the repository for ocr, closed when the test ends.
func (r *testRepo) open() *git.Repo {
	r.t.Helper()
	repo, err := git.Open(context.Background(), r.dir, git.Options{})
	if err != nil {
		r.t.Fatal(err)
	}
	r.t.Cleanup(func() { _ = repo.Close() })
	return repo
}
