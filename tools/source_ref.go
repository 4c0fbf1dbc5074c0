package tools

import (
	"context"
	"errors"

	"github.com/ocr-ci/ocr/internal/git"
)

// refSource reads a commit: contents through the repository's shared
// `git cat-file --batch` process, the file list from one `git ls-tree`,
// searches with `git grep ... REF`.
type refSource struct {
	repo *git.Repo
	ref  string
	lister
}

// RefSource reads the repository at ref (range and commit modes). Pass a
// resolved commit SHA so every task sees the same tree. The file list is
// computed on first use and shared by every task of the run.
func RefSource(repo *git.Repo, ref string) Source {
	s := &refSource{repo: repo, ref: ref}
	s.list = func(ctx context.Context) ([]string, error) { return repo.ListFiles(ctx, ref) }
	return s
}

// ReadFile implements Source.
func (s *refSource) ReadFile(ctx context.Context, p string) ([]byte, error) {
	data, err := s.repo.ReadFile(ctx, s.ref, p)
	return data, mapGitErr(err)
}

// ListFiles implements Source.
func (s *refSource) ListFiles(ctx context.Context) ([]string, error) { return s.files(ctx) }

// Grep implements Source.
func (s *refSource) Grep(ctx context.Context, q SearchQuery) ([]Match, error) {
	return grepRepo(ctx, s.repo, q, git.GrepOptions{Ref: s.ref}, s.ref+":", &s.lister)
}

// mapGitErr turns git's not-found and outside errors into the Source ones.
func mapGitErr(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, git.ErrNotFound):
		return ErrNotFound
	case errors.Is(err, git.ErrOutsideRepository):
		return errOutside
	}
	return err
}

// grepRepo runs git grep with the query on top of o and parses the output,
// stripping prefix (the "REF:" git puts before every path) and using the
// file list to split "path:line:text" where a path holds colons.
func grepRepo(ctx context.Context, repo *git.Repo, q SearchQuery, o git.GrepOptions, prefix string, l *lister) ([]Match, error) {
	o.Pattern, o.Pathspecs = q.Text, q.Pathspecs
	o.IgnoreCase, o.Perl, o.MaxCount = q.IgnoreCase, q.Perl, q.MaxCount
	o.Timeout, o.MaxBytes = searchTimeout, searchReadBytes
	out, err := repo.Grep(ctx, o)
	if err != nil {
		return nil, err
	}
	var known map[string]bool
	if ix, err := l.index(ctx); err == nil {
		known = ix.all
	}
	return parseGrep(out, prefix, known), nil
}
