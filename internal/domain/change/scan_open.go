package change

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/ocr-ci/ocr/internal/infra/git"
	"github.com/ocr-ci/ocr/tools"
)

// ScanSource is where a scan reads: a commit of a repository, its work
// tree, or a plain directory.
type ScanSource struct {
	Repo  *git.Repo // a plain directory's Repo when Plain is set
	Plain bool
	Src   tools.Source
	Head  string // the commit read; "" for a work tree or a directory
}

// ScanUsageError is a scan asked for what cannot be (exit 2).
type ScanUsageError struct{ Msg string }

func (e *ScanUsageError) Error() string { return e.Msg }

// OpenScan decides what a scan of dir reads: the files at ref (default
// HEAD), the work tree, or a plain directory when dir is not in a
// repository.
func OpenScan(ctx context.Context, dir, ref string, worktree bool, opt git.Options) (*ScanSource, error) {
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil, &ScanUsageError{fmt.Sprintf("--repo %q is not a directory: pass the directory to scan", dir)}
	}
	repo, err := git.Open(ctx, dir, opt)
	switch {
	case errors.Is(err, git.ErrNotRepository):
		if ref != "" || worktree {
			return nil, &ScanUsageError{fmt.Sprintf("%s is not in a git repository: --ref and --worktree need one (leave them out to scan the plain directory)", dir)}
		}
		return &ScanSource{Repo: git.Plain(dir, opt), Plain: true, Src: tools.DirSource(dir)}, nil
	case err != nil:
		return nil, err
	case worktree:
		return &ScanSource{Repo: repo, Src: tools.WorkSource(repo)}, nil
	}
	if ref == "" {
		ref = "HEAD"
	}
	head, err := repo.ResolveCommit(ctx, ref)
	if err != nil {
		_ = repo.Close()
		return nil, fmt.Errorf("could not resolve --ref %s: %w (give a commit or ref that exists here, or --worktree for uncommitted files)", ref, err)
	}
	return &ScanSource{Repo: repo, Head: head, Src: tools.RefSource(repo, head)}, nil
}

// What names what the scan reads, for logs.
func (s *ScanSource) What() string {
	switch {
	case s.Plain:
		return "a plain directory"
	case s.Head == "":
		return "the work tree"
	}
	return "the files at " + s.Head
}

// Top is the repository's top directory, "" for a plain directory.
func (s *ScanSource) Top() string {
	if s.Plain {
		return ""
	}
	return s.Repo.Dir()
}

// Since lists the files changed since the commit since (resolved, and
// returned) up to the scanned commit or the work tree: `ocr scan --since`.
func (s *ScanSource) Since(ctx context.Context, since string) ([]string, string, error) {
	if s.Plain {
		return nil, "", &ScanUsageError{fmt.Sprintf("--since needs a git repository: %s is not in one", s.Repo.Dir())}
	}
	from, err := s.Repo.ResolveCommit(ctx, since)
	if err != nil {
		return nil, "", fmt.Errorf("could not resolve --since %s: %w (give a commit or ref that exists here; in CI, fetch enough history)", since, err)
	}
	paths, err := s.Repo.ChangedPaths(ctx, from, s.Head)
	if paths == nil {
		paths = []string{} // nothing changed: nothing to scan
	}
	return paths, from, err
}

// Recent maps the files changed in the last maxCommits commits to how
// many commits ago they last changed; nil for a plain directory.
func (s *ScanSource) Recent(ctx context.Context, maxCommits int) (map[string]int, error) {
	if s.Plain {
		return nil, nil
	}
	head := s.Head
	if head == "" {
		// The work tree of a repository with no commit has no history to
		// rank by; that is not worth a warning.
		if _, err := s.Repo.ResolveCommit(ctx, "HEAD"); errors.Is(err, git.ErrUnknownRef) {
			return nil, nil
		}
		head = "HEAD"
	}
	return s.Repo.RecentPaths(ctx, head, maxCommits)
}
