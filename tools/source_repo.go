package tools

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/ocr-ci/ocr/internal/infra/git"
)

// repoSource is every Source of this package: a commit, the work tree of
// a repository, or a plain directory, told apart by where git grep
// searches and whether files are read from disk.
type repoSource struct {
	repo   *git.Repo
	grep   git.GrepOptions // Ref, Untracked or NoIndex
	onDisk bool            // read the work tree, not the commit at grep.Ref
	lister
}

// RefSource reads the repository at ref (range and commit modes): contents
// through the repository's shared `git cat-file --batch` process, the file
// list from one `git ls-tree`, searches with `git grep ... REF`. Pass a
// resolved commit SHA so every task sees the same tree. The file list is
// computed on first use and shared by every task of the run.
func RefSource(repo *git.Repo, ref string) Source {
	s := &repoSource{repo: repo, grep: git.GrepOptions{Ref: ref}}
	s.list = func(ctx context.Context) ([]string, error) { return repo.ListFiles(ctx, ref) }
	return s
}

// WorkSource reads the repository's work tree (workspace mode): files from
// disk (symlinks resolved, confined to the repository), the list from `git
// ls-files --cached --others --exclude-standard`, searches with `git grep
// --untracked`.
func WorkSource(repo *git.Repo) Source {
	s := &repoSource{repo: repo, grep: git.GrepOptions{Untracked: true}, onDisk: true}
	s.list = func(ctx context.Context) ([]string, error) { return repo.ListFiles(ctx, "") }
	return s
}

// DirSource reads a plain directory: files from disk (confined to dir), the
// list from a walk honouring .gitignore files, searches with `git grep
// --no-index --exclude-standard`.
func DirSource(dir string) Source {
	plain := git.Plain(dir, git.Options{})
	s := &repoSource{repo: plain, grep: git.GrepOptions{NoIndex: true}, onDisk: true}
	s.list = func(ctx context.Context) ([]string, error) { return walk(ctx, plain.Dir()) }
	return s
}

// ReadFile implements Source.
func (s *repoSource) ReadFile(ctx context.Context, p string) ([]byte, error) {
	if s.onDisk {
		return s.readDisk(ctx, p)
	}
	data, err := s.repo.ReadFile(ctx, s.grep.Ref, p)
	return data, mapGitErr(err)
}

// ListFiles implements Source.
func (s *repoSource) ListFiles(ctx context.Context) ([]string, error) { return s.files(ctx) }

// Grep implements Source: git grep with the query on top of s.grep, its
// output parsed with the "REF:" git puts before every path stripped and
// the file list splitting "path:line:text" where a path holds colons.
func (s *repoSource) Grep(ctx context.Context, q SearchQuery) ([]Match, error) {
	o := s.grep
	o.Pattern, o.Pathspecs = q.Text, q.Pathspecs
	o.IgnoreCase, o.Perl, o.MaxCount = q.IgnoreCase, q.Perl, q.MaxCount
	o.Timeout, o.MaxBytes = searchTimeout, searchReadBytes
	out, err := s.repo.Grep(ctx, o)
	if err != nil {
		return nil, err
	}
	prefix := ""
	if o.Ref != "" {
		prefix = o.Ref + ":"
	}
	var known map[string]bool
	if ix, err := s.index(ctx); err == nil {
		known = ix.all
	}
	return parseGrep(out, prefix, known), nil
}

// readDisk returns the content of the listed work-tree file p. Only
// listed files can be read, and a symlink only when its target is listed
// too, so ignored files (build output, .env) stay out of reach like they
// stay out of file_find.
func (s *repoSource) readDisk(ctx context.Context, p string) ([]byte, error) {
	ix, err := s.index(ctx)
	if err != nil {
		return nil, err
	}
	if !ix.all[p] {
		return nil, ErrNotFound
	}
	rel, err := s.repo.WorkPath(p)
	if err != nil {
		return nil, mapGitErr(err)
	}
	if !ix.all[rel] {
		return nil, ErrNotFound
	}
	full := filepath.Join(s.repo.Dir(), filepath.FromSlash(rel))
	fi, err := os.Stat(full)
	switch {
	case err != nil:
		return nil, err
	case !fi.Mode().IsRegular():
		return nil, ErrNotFound
	case fi.Size() > readMaxBytes:
		return nil, fmt.Errorf("the file is larger than %d MiB", readMaxBytes>>20)
	}
	return os.ReadFile(full)
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
	case errors.Is(err, git.ErrTooLarge):
		return fmt.Errorf("the file is larger than %d MiB", readMaxBytes>>20)
	}
	return err
}
