package tools

import (
	"context"

	"github.com/ocr-ci/ocr/internal/git"
)

// dirSource reads a directory that is not a git repository.
type dirSource struct {
	plain *git.Repo
	disk
}

// DirSource reads a plain directory: files from disk (confined to dir), the
// list from a walk honouring .gitignore files, searches with `git grep
// --no-index --exclude-standard`.
func DirSource(dir string) Source {
	root := resolveDir(dir)
	s := &dirSource{plain: git.Plain(root, git.Options{}), disk: disk{root: root}}
	s.list = func(ctx context.Context) ([]string, error) { return walk(ctx, root) }
	return s
}

// ReadFile implements Source.
func (s *dirSource) ReadFile(ctx context.Context, p string) ([]byte, error) { return s.read(ctx, p) }

// ListFiles implements Source.
func (s *dirSource) ListFiles(ctx context.Context) ([]string, error) { return s.files(ctx) }

// Grep implements Source.
func (s *dirSource) Grep(ctx context.Context, q SearchQuery) ([]Match, error) {
	return grepRepo(ctx, s.plain, q, git.GrepOptions{NoIndex: true}, "", &s.lister)
}
