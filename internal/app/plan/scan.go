package plan

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/ocr-ci/ocr/agent/grouping"
	"github.com/ocr-ci/ocr/internal/app/cli"
	"github.com/ocr-ci/ocr/internal/app/config"
	"github.com/ocr-ci/ocr/internal/app/preview"
	"github.com/ocr-ci/ocr/internal/domain/change"
	"github.com/ocr-ci/ocr/internal/domain/rules"
	"github.com/ocr-ci/ocr/internal/domain/selection"
	"github.com/ocr-ci/ocr/internal/domain/shard"
	"github.com/ocr-ci/ocr/internal/infra/git"
	"github.com/ocr-ci/ocr/review"
)

// recentCommits bounds the history read to rank a scan's files.
const recentCommits = 1000

// ScanOptions are what only `ocr scan` takes, resolved.
type ScanOptions struct {
	cli.Scan
	MaxFiles int
	Paths    []string      // as given: relative to --repo (change.ScanPaths)
	Shard    *review.Shard // nil: everything selected
}

// Scan is the deterministic part of a scan: where files are read, the
// synthesised change, the rules and the selection.
type Scan struct {
	*change.ScanSource
	Change      *change.Change
	Rules       *rules.Set
	Preview     preview.Preview
	Cut         int   // selected files left out by --max-files
	Order       []int // the reviewed files of Preview, in rank order
	Paths       []string
	SinceCommit string // the commit of --since
	Shard       *review.Shard
}

// ForScan opens the repository (or the plain directory), lists and reads
// the files to scan, selects them as a review would, keeps the shard's
// part and ranks it for the --max-files cut.
func ForScan(ctx context.Context, cfg *config.Config, opt ScanOptions, logf Logf) (*Scan, error) {
	src, err := change.OpenScan(ctx, cfg.Path(cfg.Repo), opt.Ref, opt.Worktree, git.Options{MaxProcs: cfg.MaxGitProcs, Logf: logf})
	if err != nil {
		return nil, err
	}
	sc := &Scan{ScanSource: src, Shard: opt.Shard}
	if err := sc.load(ctx, cfg, opt); err != nil {
		sc.Close()
		return nil, err
	}
	files := selection.FilesByPath(sc.Change.Files, sc.Change.Diffs, scanSelection(cfg))
	if files = sc.Rules.ApplySelection(files); opt.Shard != nil {
		all := files
		files = shard.Select(files, sc.Change.Diffs, *opt.Shard, bundleGroups) // before the costly secrets scan
		if note := shard.EmptyNote(all, files, *opt.Shard); note != "" {
			logf("%s", note)
		}
	}
	files = selection.ScanSecrets(files, sc.Change.Diffs)
	recent, err := sc.Recent(ctx, recentCommits)
	if err != nil {
		logf("files ranked without the history: %v", err)
	}
	rank := selection.NewRanker(recent)
	sc.Order = rank.Order(files)
	sc.Cut = rank.CapRanked(files, sc.Order, opt.MaxFiles, review.ReasonBudget, fmt.Sprintf("beyond --max-files %d", opt.MaxFiles),
		"narrow the PATHs, add --exclude, shard the scan or raise --max-files")
	sc.Preview = preview.New(sc.Change, files)
	return sc, nil
}

// Close stops the repository's cat-file process, if a repository is read.
func (sc *Scan) Close() { CloseRepo(sc.Repo) }

// scanSelection is review's selection, data files left out.
func scanSelection(cfg *config.Config) selection.Options {
	return selection.Options{Exclude: cfg.Exclude, Include: cfg.Include, IncludeTests: cfg.IncludeTests,
		MaxFileTokens: cfg.MaxFileTokens, LeaveOutData: true}
}

// load reads the files under the PATHs (changed since --since) and the
// rules.
func (sc *Scan) load(ctx context.Context, cfg *config.Config, opt ScanOptions) error {
	var err error
	if sc.Paths, err = change.ScanPaths(opt.Paths, sc.Top(), cfg.Path(cfg.Repo)); err != nil {
		return err
	}
	var only []string
	if opt.Since != "" {
		if only, sc.SinceCommit, err = sc.Since(ctx, opt.Since); err != nil {
			return err
		}
	}
	if sc.Change, err = change.Scan(ctx, sc.Src, change.ScanRequest{Mode: "scan", Head: sc.Head, Paths: sc.Paths, Only: only,
		ByPath: scanSelection(cfg).DecidedByPath}); err != nil {
		return err
	}
	var repo *git.Repo
	if !sc.Plain {
		repo = sc.Repo
	}
	sc.Rules, err = Rules(ctx, cfg, repo, ConfigRef(cfg, sc.Change))
	return err
}

// bundleGroups are the review groups of a scan's selected files.
func bundleGroups(paths []string, tokens []int) [][]int {
	files := make([]grouping.File, len(paths))
	for i, p := range paths {
		files[i] = grouping.File{Path: p, Tokens: tokens[i]}
	}
	var out [][]int
	for _, g := range grouping.ByDir(files, 0, 0) {
		out = append(out, []int(g))
	}
	return out
}

// Fingerprint is the scan's configuration fingerprint: what shapes the
// findings (configHash, the review's) and what the scan covers, the same
// for every shard.
func (sc *Scan) Fingerprint(configHash string, cfg *config.Config) string {
	total := 0
	if sc.Shard != nil {
		total = sc.Shard.Total
	}
	data, _ := json.Marshal([]any{configHash, sc.Paths, sc.SinceCommit, sc.Head == "" && !sc.Plain, cfg.MaxFiles, cfg.MaxFileTokens, total})
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:8])
}
