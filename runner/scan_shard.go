package runner

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/ocr-ci/ocr/agent"
	"github.com/ocr-ci/ocr/internal/shard"
	"github.com/ocr-ci/ocr/review"
)

// recentCommits bounds the history read to rank a scan's files.
const recentCommits = 1000

// shardFiles keeps the files of part s of the scan (all when s is nil):
// every file is in one part, and the review groups of the whole
// selection, and each directory, stay whole.
func shardFiles(files []review.FileCoverage, diffs map[string]string, s *review.Shard) []review.FileCoverage {
	if s == nil {
		return files
	}
	items := make([]shard.Item, len(files))
	var grouped []agent.GroupFile
	var at []int // index in files of each grouped file
	for i, f := range files {
		items[i].Path = f.Path
		if f.Reviewed {
			items[i].Tokens = len(diffs[f.Path]) / 4
			grouped, at = append(grouped, agent.GroupFile{Path: f.Path, Tokens: items[i].Tokens}), append(at, i)
		}
	}
	var together [][]int
	for _, g := range agent.BundleByDir(grouped, 0, 0) {
		idx := make([]int, len(g))
		for k, i := range g {
			idx[k] = at[i]
		}
		together = append(together, idx)
	}
	assign := shard.Assign(items, together, s.Total)
	out := []review.FileCoverage{}
	for i, f := range files {
		if assign[i] == s.Index {
			out = append(out, f)
		}
	}
	return out
}

// recentPaths are the files most recently changed in the history, first;
// nil outside a repository or when the history cannot be read.
func (c *Command) recentPaths(ctx context.Context, sc *scanned) []string {
	if sc.plain {
		return nil
	}
	paths, err := sc.repo.RecentPaths(ctx, orDefault(sc.head, "HEAD"), recentCommits)
	if err != nil {
		c.logf("files ranked without the history: %v", err)
	}
	return paths
}

// sinceFiles are the files changed since --since (nil without it).
func (c *Command) sinceFiles(ctx context.Context, sc *scanned, opt scanOptions) ([]string, error) {
	if opt.since == "" {
		return nil, nil
	}
	if sc.plain {
		return nil, usagef("--since needs a git repository: %s is not in one", sc.repo.Dir())
	}
	from, err := sc.repo.ResolveCommit(ctx, opt.since)
	if err != nil {
		return nil, usagef("could not resolve --since %s: %w (give a commit or ref that exists here; fetch enough history in CI)", opt.since, err)
	}
	sc.since = from
	paths, err := sc.repo.ChangedPaths(ctx, from, sc.head)
	if paths == nil {
		paths = []string{} // nothing changed: nothing to scan
	}
	return paths, err
}

// topOf is the repository's top directory, "" for a plain directory.
func topOf(sc *scanned) string {
	if sc.plain {
		return ""
	}
	return sc.repo.Dir()
}

// realDir is dir absolute with its symbolic links resolved, as git
// reports the top directory.
func realDir(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return dir
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return real
	}
	return abs
}

// fingerprint is the scan's configuration fingerprint: what shapes the
// findings (configHash) and what the scan covers, the same for every shard.
func (sc *scanned) fingerprint(j *job) string {
	total := 0
	if sc.shard != nil {
		total = sc.shard.Total
	}
	data, _ := json.Marshal([]any{j.configHash(), sc.paths, sc.since, sc.head == "" && !sc.plain, j.cfg.MaxFiles, j.cfg.MaxFileTokens, total})
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:8])
}

// shardText names the part reviewed, for logs.
func shardText(s *review.Shard) string {
	if s == nil {
		return ""
	}
	return fmt.Sprintf(", shard %d of %d", s.Index, s.Total)
}
