package reporters

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// The one writer of report files. A report path may lie in the checkout of
// the pull request, whose author controls what is there: a committed
// symlink named ocr.sarif (or a directory reports -> ~) must not make ocr
// overwrite ~/.bashrc. So a report file is never opened through a symlink
// and never is anything but a regular file:
//
//   - CreateFile writes a new file beside the path (O_EXCL, 0644) and, on
//     Close, renames it over the path: rename replaces a symlink itself
//     and never writes through it;
//   - AppendFile, for the files GitHub's runner owns and reads back
//     ($GITHUB_STEP_SUMMARY, $GITHUB_OUTPUT), appends to a regular file
//     and refuses a symlink or anything else;
//   - both refuse a symlink among the directories of the path below the
//     working directory (the checkout); directories above it, such as
//     $RUNNER_TEMP or /tmp, belong to the CI system.

// ErrUnsafePath is wrapped by the errors of a report path that is a
// symlink, lies below one, or is not a regular file.
var ErrUnsafePath = errors.New("not a regular file")

// Files writes report files. A relative path starts from Dir, the working
// directory ("" means the process's); messages name a path as given.
type Files struct {
	Dir string
}

// target is a report path: as given (for messages), resolved (for the
// file system), and the working directory it was resolved against.
type target struct {
	name, full string
	files      Files
}

func (fl Files) target(path string) target {
	full := path
	if fl.Dir != "" && !filepath.IsAbs(path) {
		full = filepath.Join(fl.Dir, path)
	}
	return target{name: path, full: full, files: fl}
}

// wd is the working directory: Dir, else the process's.
func (fl Files) wd() (string, error) {
	if fl.Dir != "" {
		return fl.Dir, nil
	}
	return os.Getwd()
}

// CheckPath fails when path cannot be a report file: it is a symlink or
// not a regular file, one of its directories below the working directory
// is a symlink, or its directory (or the nearest that exists, when
// CreateFile is to make the missing ones) refuses a new file. It writes
// nothing that stays.
func (fl Files) CheckPath(path string) error {
	t := fl.target(path)
	if err := t.check(); err != nil {
		return err
	}
	dir := filepath.Dir(t.full)
	for { // the nearest folder that exists: the missing ones are made when the report is written
		if _, err := os.Lstat(dir); err == nil || filepath.Dir(dir) == dir {
			break
		}
		dir = filepath.Dir(dir)
	}
	f, err := os.CreateTemp(dir, ".ocr-check-*")
	if err != nil {
		return fmt.Errorf("cannot write %q (check its directory is writable): %w", path, bare(err))
	}
	return errors.Join(f.Close(), os.Remove(f.Name()))
}

// newTemp creates the temporary file beside the path, and the path's
// missing directories first (checkDirs has refused a symlink among those
// that exist). Its errors name the path, never the temporary file.
func (t target) newTemp() (*os.File, error) {
	if err := os.MkdirAll(filepath.Dir(t.full), 0o755); err != nil {
		return nil, fmt.Errorf("cannot create the directory of %q: %w", t.name, bare(err))
	}
	f, err := os.CreateTemp(filepath.Dir(t.full), "."+filepath.Base(t.full)+".ocr-*")
	if err != nil {
		return nil, fmt.Errorf("cannot write %q (check its directory is writable): %w", t.name, bare(err))
	}
	return f, nil
}

// bare drops the path of a *fs.PathError: the caller names the path.
func bare(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// File is a report file being written: a temporary file beside its path,
// renamed over the path by Close.
type File struct {
	*os.File
	t target
}

// CreateFile starts writing the report file at path (see File).
func (fl Files) CreateFile(path string) (*File, error) {
	t := fl.target(path)
	if err := t.check(); err != nil {
		return nil, err
	}
	f, err := t.newTemp()
	if err != nil {
		return nil, err
	}
	if err := f.Chmod(0o644); err != nil {
		return nil, errors.Join(fmt.Errorf("cannot write %q: %w", path, err), f.Close(), os.Remove(f.Name()))
	}
	return &File{File: f, t: t}, nil
}

// Close finishes the file and renames it over the path, checked again: a
// path that became a directory or anything else is refused, and the
// temporary file removed.
func (f *File) Close() error {
	tmp := f.File.Name()
	err := f.File.Close()
	if err == nil {
		err = f.t.check()
	}
	if err == nil {
		err = os.Rename(tmp, f.t.full)
	}
	if err != nil {
		return errors.Join(fmt.Errorf("cannot write %q: %w", f.t.name, err), removeIfThere(tmp))
	}
	return nil
}

// Name is the report's path as given, not the temporary file's.
func (f *File) Name() string { return f.t.name }

// AppendFile opens path for appending: an existing regular file, or a new
// one. A symlink, a device, a FIFO or a directory is refused, and so is a
// file swapped for another between the check and the open.
func (fl Files) AppendFile(path string) (*os.File, error) {
	t := fl.target(path)
	if err := t.check(); err != nil {
		return nil, err
	}
	before, err := os.Lstat(t.full)
	flag := os.O_WRONLY | os.O_APPEND
	if errors.Is(err, fs.ErrNotExist) {
		flag |= os.O_CREATE | os.O_EXCL
	} else if err != nil {
		return nil, fmt.Errorf("cannot append to %q: %w", path, err)
	}
	f, err := os.OpenFile(t.full, flag, 0o644)
	if err != nil {
		return nil, fmt.Errorf("cannot append to %q: %w", path, err)
	}
	after, err := f.Stat()
	if err == nil && before != nil && !os.SameFile(before, after) {
		err = fmt.Errorf("%w: it changed while being opened", ErrUnsafePath)
	}
	if err == nil && !after.Mode().IsRegular() {
		err = fmt.Errorf("%w (%s)", ErrUnsafePath, after.Mode().Type())
	}
	if err != nil {
		return nil, errors.Join(fmt.Errorf("cannot append to %q: %w", path, err), f.Close())
	}
	return f, nil
}

// check refuses a path that exists as anything but a regular file, or
// lies below a symlinked directory inside the working directory.
func (t target) check() error {
	if err := t.checkDirs(); err != nil {
		return err
	}
	fi, err := os.Lstat(t.full)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("cannot write %q: %w", t.name, err)
	case fi.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("refusing to write %q: it is a symlink, and ocr never writes through one "+
			"(remove it or choose another path): %w", t.name, ErrUnsafePath)
	case !fi.Mode().IsRegular():
		return fmt.Errorf("refusing to write %q: it is %s, %w (remove it or choose another path)",
			t.name, modeName(fi.Mode()), ErrUnsafePath)
	}
	return nil
}

// checkDirs refuses a symlink among the path's directories below the
// working directory.
func (t target) checkDirs() error {
	wd, err := t.files.wd()
	if err != nil {
		return fmt.Errorf("cannot write %q: %w", t.name, err)
	}
	abs := t.full
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(wd, abs)
	}
	rel, err := filepath.Rel(wd, filepath.Dir(filepath.Clean(abs)))
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || rel == "." {
		return nil
	}
	dir := wd
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		dir = filepath.Join(dir, part)
		fi, err := os.Lstat(dir)
		if err != nil {
			return nil // missing: creating the file fails and says so
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return fmt.Errorf("refusing to write %q: its directory %q is a symlink, and ocr never writes through one "+
				"(choose another path): %w", t.name, dir, ErrUnsafePath)
		}
	}
	return nil
}

func modeName(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "not a regular file"
}

func removeIfThere(path string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}
