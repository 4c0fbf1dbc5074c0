package tools

import (
	"context"

	"github.com/ocr-ci/ocr/internal/git"
)

// workSource reads the work tree of a repository (workspace mode).
type workSource struct {
	repo *git.Repo
	disk
}

// WorkSource reads the repository's work tree: files from disk (symlinks
// resolved, confined to the repository), the list from `git ls-files
// --cached --others --exclude-standard`, searches with `git grep
// --untracked`.
func WorkSource(repo *git.Repo) Source {
	s := &workSource{repo: repo, disk: disk{root: resolveDir(repo.Dir())}}
	s.list = func(ctx context.Context) ([]string, error) { return repo.ListFiles(ctx, "") }
	return s
}

// ReadFile implements Source.
func (s *workSource) ReadFile(ctx context.Context, p string) ([]byte, error) { return s.read(ctx, p) }

// ListFiles implements Source.
func (s *workSource) ListFiles(ctx context.Context) ([]string, error) { return s.files(ctx) }

// Grep implements Source.
func (s *workSource) Grep(ctx context.Context, q SearchQuery) ([]Match, error) {
	return grepRepo(ctx, s.repo, q, git.GrepOptions{Untracked: true}, "", &s.lister)
}
