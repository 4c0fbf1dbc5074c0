package git

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"
)

// MaxReadSize is the largest blob ReadFile reads at a ref; a larger one
// fails with ErrTooLarge before any of it is read.
const MaxReadSize = 64 << 20

// ErrTooLarge means the blob is over MaxReadSize.
var ErrTooLarge = errors.New("the file is too large to read")

// ReadFile returns the contents of path (relative to the top-level
// directory, '/'-separated) at ref, through the Repo's cat-file process.
// Symlinks inside the tree are followed. With ref "" it reads the work tree
// from disk instead, resolving symlinks. Either way a path that leaves the
// repository or enters .git fails with ErrOutsideRepository, and a missing
// file with ErrNotFound.
func (r *Repo) ReadFile(ctx context.Context, ref, p string) ([]byte, error) {
	clean, err := cleanPath(p)
	if err != nil {
		return nil, err
	}
	if ref == "" {
		return r.readDisk(clean)
	}
	if err := r.needRefs(ref); err != nil {
		return nil, err
	}
	if strings.Contains(ref, ":") {
		return nil, badRef(ref, "a ref for reading a file may not contain ':'")
	}
	return r.readAt(ctx, ref, clean)
}

// readAt reads a blob at ref through cat-file --batch.
func (r *Repo) readAt(ctx context.Context, ref, p string) ([]byte, error) {
	cctx, cancel := context.WithTimeout(ctx, r.opt.Timeout)
	defer cancel()
	obj, err := r.batch.get(cctx, r.mapRef(ref)+":"+p)
	switch {
	case errors.Is(err, ErrNotFound):
		return nil, fmt.Errorf("%s at %s: %w", p, ref, ErrNotFound)
	case err != nil && ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded):
		return nil, fmt.Errorf("could not read %s at %s: %w after %s", p, ref, ErrTimeout, r.opt.Timeout)
	case err != nil:
		return nil, fmt.Errorf("could not read %s at %s: %w", p, ref, err)
	}
	switch obj.kind {
	case "blob":
		return obj.data, nil
	case "symlink":
		return nil, fmt.Errorf("%s at %s is a symlink to %q: %w", p, ref, obj.data, ErrOutsideRepository)
	case "tree":
		return nil, fmt.Errorf("%s at %s is a directory, not a file: %w", p, ref, ErrNotFound)
	case "commit":
		return nil, fmt.Errorf("%s at %s is a submodule, not a file: %w", p, ref, ErrNotFound)
	default: // dangling, loop, notdir
		return nil, fmt.Errorf("%s at %s is a broken symlink (%s): %w", p, ref, obj.kind, ErrNotFound)
	}
}

// cleanPath validates a repository-relative path and returns it cleaned.
func cleanPath(p string) (string, error) {
	switch {
	case strings.TrimSpace(p) == "":
		return "", errors.New("empty file path: name a file relative to the repository root")
	case strings.ContainsAny(p, "\x00\n\r"):
		return "", fmt.Errorf("file path %q contains control characters", p)
	case path.IsAbs(p) || filepath.IsAbs(p):
		return "", fmt.Errorf("%s: use a path relative to the repository root: %w", p, ErrOutsideRepository)
	}
	for _, part := range strings.Split(p, "/") {
		if part == ".." {
			return "", fmt.Errorf("%s: '..' is not allowed: %w", p, ErrOutsideRepository)
		}
	}
	c := path.Clean(p)
	if c == "." {
		return "", fmt.Errorf("%q names the repository root, not a file: %w", p, ErrNotFound)
	}
	if inGitDir(c) {
		return "", fmt.Errorf("%s is inside git's own directory: %w", p, ErrOutsideRepository)
	}
	return c, nil
}

// inGitDir reports whether a relative path enters a .git directory (or
// file), where credentials may live.
func inGitDir(rel string) bool {
	for _, part := range strings.Split(filepath.ToSlash(rel), "/") {
		if strings.EqualFold(part, ".git") {
			return true
		}
	}
	return false
}

// WorkPath resolves the work-tree path p (relative to the top-level
// directory, '/'-separated), following symlinks, and returns where the
// file really is, relative to the top-level directory. A path that leads
// outside the repository or into .git fails with ErrOutsideRepository; one
// that does not exist with ErrNotFound. It works on a Plain directory too.
func (r *Repo) WorkPath(p string) (string, error) {
	rel, err := cleanPath(p)
	if err != nil {
		return "", err
	}
	resolved, err := filepath.EvalSymlinks(filepath.Join(r.dir, filepath.FromSlash(rel)))
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return "", fmt.Errorf("%s: %w", rel, ErrNotFound)
	}
	if err != nil {
		return "", fmt.Errorf("could not resolve %s: %w", rel, err)
	}
	within, err := filepath.Rel(r.dir, resolved)
	if err != nil || within == ".." || strings.HasPrefix(within, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("%s resolves to %s: %w", rel, resolved, ErrOutsideRepository)
	}
	if inGitDir(within) {
		return "", fmt.Errorf("%s resolves into git's own directory: %w", rel, ErrOutsideRepository)
	}
	return filepath.ToSlash(within), nil
}

// readDisk reads a work-tree file, refusing anything that resolves
// outside the top-level directory or is not a regular file.
func (r *Repo) readDisk(rel string) ([]byte, error) {
	within, err := r.WorkPath(rel)
	if err != nil {
		return nil, err
	}
	resolved := filepath.Join(r.dir, filepath.FromSlash(within))
	fi, err := os.Stat(resolved)
	if err != nil {
		return nil, fmt.Errorf("could not read %s: %w", rel, err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file: %w", rel, ErrNotFound)
	}
	data, err := os.ReadFile(resolved)
	if err != nil {
		return nil, fmt.Errorf("could not read %s: %w", rel, err)
	}
	return data, nil
}
