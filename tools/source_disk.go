package tools

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// disk reads files of a directory tree from the file system, resolving
// symlinks and refusing anything that ends up outside root or inside .git.
// Only files in the listing can be read, so ignored files (build output,
// .env) stay out of reach like they stay out of file_find.
type disk struct {
	root string // absolute, symlinks resolved
	lister
}

// read returns the content of the listed file p.
func (d *disk) read(ctx context.Context, p string) ([]byte, error) {
	ix, err := d.index(ctx)
	if err != nil {
		return nil, err
	}
	if !ix.all[p] {
		return nil, ErrNotFound
	}
	real, err := filepath.EvalSymlinks(filepath.Join(d.root, filepath.FromSlash(p)))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	rel, err := d.inside(real)
	if err != nil {
		return nil, err
	}
	if !ix.all[rel] {
		// A symlink to an ignored file (.env, build output): the target
		// is out of reach like the file itself.
		return nil, ErrNotFound
	}
	fi, err := os.Stat(real)
	switch {
	case err != nil:
		return nil, err
	case !fi.Mode().IsRegular():
		return nil, ErrNotFound
	case fi.Size() > readMaxBytes:
		return nil, fmt.Errorf("the file is larger than %d MiB", readMaxBytes>>20)
	}
	return os.ReadFile(real)
}

// inside checks that a resolved path lies in root and not in .git, and
// returns it relative to root, '/'-separated.
func (d *disk) inside(real string) (string, error) {
	rel, err := filepath.Rel(d.root, real)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", errOutside
	}
	clean, err := safePath(filepath.ToSlash(rel))
	if err != nil {
		return "", errOutside
	}
	return clean, nil
}

// resolveDir returns dir as an absolute path with symlinks resolved.
func resolveDir(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return dir
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return real
	}
	return abs
}
