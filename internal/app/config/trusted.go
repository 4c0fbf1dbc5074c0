package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Settings files: --rule, --background-file and --tools name files whose
// content steers the review. In CI the working directory is the pull
// request's checkout (a GitLab merge request pipeline checks out its
// head), whose author could replace them; so there a path inside the
// repository is read at the trusted ref (ConfigRef, the base), through
// git, never from the work tree. A path outside the repository ($RUNNER_TEMP,
// a mounted secret) is not the pull request's, and is read from disk.

// SettingFiles returns the settings files that are set, by flag name.
func (c *Config) SettingFiles() map[string]string {
	m := map[string]string{}
	for name, p := range map[string]string{"--rule": c.Rule, "--background-file": c.BackgroundFile, "--tools": c.Tools} {
		if p != "" {
			m[name] = p
		}
	}
	return m
}

// FileSource reads settings files.
type FileSource struct {
	// Ref is the trusted ref; "" reads everything from disk (outside CI).
	Ref string
	// Root is the repository's top-level directory (absolute).
	Root string
	// ReadAt reads a '/'-separated repository path at ref (git cat-file).
	ReadAt func(ref, rel string) ([]byte, error)
	// Getwd is the working directory relative paths start from; nil
	// means os.Getwd.
	Getwd func() (string, error)
}

// Read returns the content of the settings file path given to setting:
// at Ref when it lies inside the repository, else from disk.
func (s FileSource) Read(setting, path string) ([]byte, error) {
	rel, inside, err := s.repoPath(path)
	if err != nil {
		return nil, fmt.Errorf("could not read %s file %s: %w", setting, path, err)
	}
	if s.Ref == "" || !inside {
		data, err := s.readDisk(path)
		if err != nil {
			return nil, fmt.Errorf("could not read %s file: %w", setting, err)
		}
		return data, nil
	}
	data, err := s.ReadAt(s.Ref, rel)
	if err != nil {
		return nil, fmt.Errorf("could not read %s file %s at the trusted ref %s (in CI it is read from there, "+
			"not from the checkout of the pull request: commit it to the base branch, or give a path outside the repository): %w",
			setting, path, s.Ref, err)
	}
	return data, nil
}

// readDisk reads path from disk, a relative one from the working
// directory (Getwd); its error names path as given.
func (s FileSource) readDisk(path string) ([]byte, error) {
	full := path
	if s.Getwd != nil && !filepath.IsAbs(path) {
		wd, err := s.Getwd()
		if err != nil {
			return nil, err
		}
		full = filepath.Join(wd, path)
	}
	data, err := os.ReadFile(full)
	var pe *fs.PathError
	if errors.As(err, &pe) {
		pe.Path = path
	}
	return data, err
}

// repoPath returns path relative to Root, and whether it lies inside.
func (s FileSource) repoPath(path string) (string, bool, error) {
	if s.Root == "" {
		return "", false, nil
	}
	abs := path
	if !filepath.IsAbs(abs) {
		getwd := s.Getwd
		if getwd == nil {
			getwd = os.Getwd
		}
		wd, err := getwd()
		if err != nil {
			return "", false, err
		}
		if w, err := filepath.EvalSymlinks(wd); err == nil {
			wd = w // the working directory is the CI's, not the PR's
		}
		abs = filepath.Join(wd, abs)
	}
	root := s.Root
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	// Nothing below the working directory is resolved: a symlinked
	// directory in the checkout is the pull request's, and must not lead
	// the read out of the repository onto the disk.
	abs = filepath.Clean(abs)
	rel, err := filepath.Rel(root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false, nil
	}
	return filepath.ToSlash(rel), true, nil
}

// ReadSetting returns the content of the settings file path given to
// setting: the one Loaded holds, else the file on disk.
func (c *Config) ReadSetting(setting, path string) ([]byte, error) {
	if data, ok := c.Loaded[setting]; ok {
		return data, nil
	}
	return FileSource{Getwd: c.Getwd}.Read(setting, path)
}

// ReadFile reads path from disk, a relative one from Dir; its error names
// path as given.
func (c *Config) ReadFile(path string) ([]byte, error) {
	return FileSource{Getwd: c.Getwd}.readDisk(path)
}
