package git

import (
	"context"
	"fmt"
	"sort"
)

// ListFiles returns the paths of all files at ref (`git ls-tree -r`); with
// ref "" the tracked and untracked, non-ignored files of the work tree
// (`git ls-files --cached --others --exclude-standard`). Paths are
// relative to the top-level directory, '/'-separated, unquoted.
func (r *Repo) ListFiles(ctx context.Context, ref string) ([]string, error) {
	if err := r.needRepo(); err != nil {
		return nil, err
	}
	args := []string{"ls-files", "--cached", "--others", "--exclude-standard", "-z", "--"}
	what := "the work tree"
	if ref != "" {
		if err := checkRef(ref); err != nil {
			return nil, err
		}
		args = []string{"ls-tree", "-r", "--name-only", "--full-tree", "-z", "--end-of-options", r.mapRef(ref)}
		what = ref
	}
	// ls-tree takes a "--" after --end-of-options as a path: none is given.
	out, err := r.run(ctx, call{args: args, timeout: defaultListTimeout})
	if err != nil {
		return nil, fmt.Errorf("could not list the files of %s: %w", what, err)
	}
	files := splitZ(out)
	if ref == "" {
		sort.Strings(files) // ls-files lists untracked files apart
	}
	return dedupe(files), nil
}

// dedupe drops repeated paths from a sorted list (ls-files lists each
// stage of a conflicted file).
func dedupe(paths []string) []string {
	out := paths[:0]
	for i, p := range paths {
		if i == 0 || p != paths[i-1] {
			out = append(out, p)
		}
	}
	return out
}
