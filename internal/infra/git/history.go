package git

import (
	"context"
	"fmt"
	"strings"
)

// RecentPaths maps the paths changed by the last maxCommits commits
// reachable from ref (`git log --name-only`) to how recently they last
// changed: 0 for the newest commit, 1 for the one before, and so on. The
// bound keeps it fast on a long history; a shallow clone simply has fewer
// commits to tell.
func (r *Repo) RecentPaths(ctx context.Context, ref string, maxCommits int) (map[string]int, error) {
	if err := r.needRepo(); err != nil {
		return nil, err
	}
	if err := checkRef(ref); err != nil {
		return nil, err
	}
	args := []string{"log", "--name-only", "--format=format:%x01", "--no-renames", "--no-ext-diff", "--no-textconv", "-z",
		fmt.Sprintf("--max-count=%d", max(maxCommits, 1)), "--end-of-options", r.mapRef(ref), "--"}
	out, err := r.run(ctx, call{args: args, timeout: defaultListTimeout, objects: true})
	if err != nil {
		return nil, fmt.Errorf("could not read the history of %s: %w", ref, err)
	}
	// Each commit starts with \x01, then a newline and its first path;
	// each path ends with a NUL.
	recent, commit := map[string]int{}, -1
	for _, p := range splitZ(out) {
		if rest, ok := strings.CutPrefix(p, "\x01"); ok {
			commit, p = commit+1, strings.TrimPrefix(rest, "\n")
		}
		if _, seen := recent[p]; p != "" && !seen {
			recent[p] = max(commit, 0)
		}
	}
	return recent, nil
}

// ChangedPaths lists the files that differ between the commit from and
// to (`git diff --name-only`), or, with to "", between from and the work
// tree with the untracked files: the files changed since from. Deleted
// files are left out: there is nothing of them to read.
func (r *Repo) ChangedPaths(ctx context.Context, from, to string) ([]string, error) {
	if err := r.needRepo(); err != nil {
		return nil, err
	}
	for _, ref := range []string{from, to} {
		if err := checkRef(ref); err != nil && ref != "" {
			return nil, err
		}
	}
	args := []string{"diff", "--name-only", "--no-renames", "--diff-filter=d", "--no-ext-diff", "--no-textconv", "-z",
		"--end-of-options", r.mapRef(from)}
	if to != "" {
		args = append(args, r.mapRef(to))
	}
	out, err := r.run(ctx, call{args: append(args, "--"), timeout: defaultListTimeout, objects: to != ""})
	if err != nil {
		return nil, fmt.Errorf("could not list the files changed since %s: %w", from, err)
	}
	paths := splitZ(out)
	if to == "" {
		more, err := r.untracked(ctx)
		if err != nil {
			return nil, err
		}
		paths = append(paths, more...)
	}
	return firstSeen(paths), nil
}

// firstSeen drops empty entries and repeats, keeping the first.
func firstSeen(paths []string) []string {
	seen := make(map[string]bool, len(paths))
	out := paths[:0]
	for _, p := range paths {
		if p != "" && !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}
