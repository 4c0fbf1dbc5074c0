package change

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"
)

// ScanPaths checks a scan's PATH arguments and makes them relative to the
// top of the tree: like git's pathspecs, they are relative to dir, where
// ocr runs (--repo), which may be a subdirectory of the repository whose
// top is top (both real, absolute paths; top "" outside a repository).
// "." means dir itself; no argument means the whole tree. A PATH that
// begins with '-', is absolute or leaves the tree is a *PathError.
func ScanPaths(args []string, top, dir string) ([]string, error) {
	prefix := ""
	if top != "" {
		rel, err := filepath.Rel(top, realDir(dir))
		if err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
			prefix = filepath.ToSlash(rel)
		}
	}
	var out []string
	for _, a := range args {
		p := path.Clean(strings.ReplaceAll(a, "\\", "/"))
		if !path.IsAbs(p) {
			p = path.Clean(path.Join(prefix, p))
		}
		switch {
		case strings.HasPrefix(a, "-"):
			return nil, &PathError{Path: a, Why: "begins with '-': put the flags before the paths"}
		case path.IsAbs(p) || p == ".." || strings.HasPrefix(p, "../"):
			return nil, &PathError{Path: a, Why: "leaves the scanned tree: give paths relative to the current directory (or to --repo), inside the repository"}
		case p == ".":
			p = ""
		}
		out = append(out, p)
	}
	return out, nil
}

// keepOnly keeps the files of all that are in keep (the files changed since
// --since), in all's order; nil keep keeps everything.
func keepOnly(all, keep []string) []string {
	if keep == nil {
		return all
	}
	set := make(map[string]bool, len(keep))
	for _, p := range keep {
		set[p] = true
	}
	out := []string{}
	for _, p := range all {
		if set[p] {
			out = append(out, p)
		}
	}
	return out
}

func (e *PathError) Error() string {
	if e.Why != "" {
		return fmt.Sprintf("PATH %q %s", e.Path, e.Why)
	}
	return fmt.Sprintf("PATH %q matches no file to scan: give a file or directory relative to the current directory (or to the scanned directory)", e.Path)
}

// realDir is dir absolute with its symbolic links resolved, as git
// reports the top directory.
func realDir(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return dir
	}
	if resolved, err := filepath.EvalSymlinks(abs); err == nil {
		return resolved
	}
	return abs
}
