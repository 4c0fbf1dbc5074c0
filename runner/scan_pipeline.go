package runner

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/ocr-ci/ocr/agent"
	"github.com/ocr-ci/ocr/internal/change"
	"github.com/ocr-ci/ocr/internal/config"
	"github.com/ocr-ci/ocr/internal/git"
	"github.com/ocr-ci/ocr/internal/rules"
	"github.com/ocr-ci/ocr/internal/selection"
	"github.com/ocr-ci/ocr/review"
	"github.com/ocr-ci/ocr/tools"
)

// scanNote tells the model what a scan is: the "diff" it sees is every
// file whole, and there is no change to compare against.
const scanNote = "This is a scan of existing code, not a change: each file is shown whole as added lines, " +
	"and there is no earlier version (file_read_diff is not offered). Review the code as it stands; every line may be commented on."

// scanned is the deterministic part of a scan: where files are read, the
// synthesised change, the rules and the selection.
type scanned struct {
	repo    *git.Repo // a plain directory's Repo when plain is set
	plain   bool
	src     tools.Source
	head    string // the commit read; "" for a work tree or a directory
	change  *change.Change
	rules   *rules.Set
	preview Preview
	cut     int   // selected files left out by --max-files
	order   []int // the reviewed files of preview, in rank order
	paths   []string
	since   string // the commit of --since
	shard   *review.Shard
}

// prepareScan opens the repository (or the plain directory), lists and
// reads the files to scan and selects them as a review would.
func (c *Command) prepareScan(ctx context.Context, cfg *config.Config, opt scanOptions) (*scanned, error) {
	sc, err := c.openScan(ctx, cfg, opt)
	if err != nil {
		return nil, err
	}
	if err := c.loadScan(ctx, cfg, opt, sc); err != nil {
		closeRepo(sc.repo)
		return nil, err
	}
	sc.shard = opt.shard
	files := selection.Files(sc.change.Files, sc.change.Diffs, scanSelection(cfg))
	files = shardFiles(applyRuleSelection(files, sc.rules), sc.change.Diffs, opt.shard)
	rank := selection.NewRanker(c.recentPaths(ctx, sc))
	sc.order = rank.Order(files)
	sc.cut = rank.CapRanked(files, sc.order, opt.maxFiles, review.ReasonBudget,
		fmt.Sprintf("beyond --max-files %d: narrow the PATHs, add --exclude, shard the scan or raise --max-files", opt.maxFiles))
	sc.preview = newPreview(sc.change, files)
	return sc, nil
}

// scanSelection is review's selection, data files left out.
func scanSelection(cfg *config.Config) selection.Options {
	return selection.Options{Exclude: cfg.Exclude, Include: cfg.Include, IncludeTests: cfg.IncludeTests,
		MaxFileTokens: cfg.MaxFileTokens, LeaveOutData: true}
}

// loadScan reads the files under the PATHs (changed since --since) and
// the rules.
func (c *Command) loadScan(ctx context.Context, cfg *config.Config, opt scanOptions, sc *scanned) error {
	var err error
	if sc.paths, err = change.ScanPaths(opt.paths, topOf(sc), realDir(cfg.Repo)); err != nil {
		return err
	}
	only, err := c.sinceFiles(ctx, sc, opt)
	if err != nil {
		return err
	}
	if sc.change, err = change.Scan(ctx, sc.src, "scan", sc.head, sc.paths, only, scanSelection(cfg).DecidedByPath); err != nil {
		return err
	}
	var repo *git.Repo
	if !sc.plain {
		repo = sc.repo
	}
	sc.rules, err = loadRules(ctx, cfg, repo, configRef(cfg, sc.change))
	return err
}

// openScan decides what a scan reads: the files at a commit, the work
// tree, or a plain directory when --repo is not in a repository.
func (c *Command) openScan(ctx context.Context, cfg *config.Config, opt scanOptions) (*scanned, error) {
	if st, err := os.Stat(cfg.Repo); err != nil || !st.IsDir() {
		return nil, usagef("--repo %q is not a directory: pass the directory to scan", cfg.Repo)
	}
	repo, err := git.Open(ctx, cfg.Repo, git.Options{MaxProcs: cfg.MaxGitProcs, Logf: c.logf})
	switch {
	case errors.Is(err, git.ErrNotRepository):
		if opt.ref != "" || opt.worktree {
			return nil, usagef("%s is not in a git repository: --ref and --worktree need one (leave them out to scan the plain directory)", cfg.Repo)
		}
		plain := git.Plain(cfg.Repo, git.Options{MaxProcs: cfg.MaxGitProcs, Logf: c.logf})
		return &scanned{repo: plain, plain: true, src: tools.DirSource(cfg.Repo)}, nil
	case err != nil:
		return nil, err
	case opt.worktree:
		return &scanned{repo: repo, src: tools.WorkSource(repo)}, nil
	}
	ref := orDefault(opt.ref, "HEAD")
	head, err := repo.ResolveCommit(ctx, ref)
	if err != nil {
		closeRepo(repo)
		return nil, usagef("could not resolve --ref %s: %w (give a commit or ref that exists here, or --worktree for uncommitted files)", ref, err)
	}
	return &scanned{repo: repo, head: head, src: tools.RefSource(repo, head)}, nil
}

// scanPreview prints a scan's selection without calling a model.
func (c *Command) scanPreview(ctx context.Context, cfg *config.Config, opt scanOptions) error {
	sc, err := c.prepareScan(ctx, cfg, opt)
	if err != nil {
		return err
	}
	defer closeRepo(sc.repo)
	w, closeOut, err := c.output(cfg.Output)
	if err != nil {
		return err
	}
	defer closeOut()
	if cfg.Format == "json" {
		return sc.preview.writeJSON(w)
	}
	return sc.preview.writeText(w)
}

// fullScan runs a scan: files → selection → agent → reporters → exit code.
func (c *Command) fullScan(ctx context.Context, j *job, opt scanOptions) int {
	if err := c.maskSecrets(j); err != nil {
		return c.fail(err)
	}
	ctx, cancel := j.deadline(ctx)
	defer cancel()
	sc, err := c.prepareScan(ctx, j.cfg, opt)
	if err != nil {
		return c.fail(err)
	}
	defer closeRepo(sc.repo)
	p := sc.preview
	c.logf("scan of %s%s: %d file(s), %d selected, %d left out by --max-files %d",
		scanModeText(opt, sc.plain), shardText(opt.shard), p.Totals.Files, p.Totals.Reviewed, sc.cut, opt.maxFiles)
	rv, err := c.scanAgent(ctx, j, sc)
	if err != nil {
		return c.fail(err)
	}
	c.markDeadline(ctx, rv)
	return c.publish(context.WithoutCancel(ctx), j, sc.change, rv)
}

// scanAgent reviews the selected files with the tools reading from the
// scanned source, file_read_diff left out.
func (c *Command) scanAgent(ctx context.Context, j *job, sc *scanned) (*review.Review, error) {
	ch, p := sc.change, sc.preview
	rv := &review.Review{Tool: "ocr", Version: Version, Mode: ch.Mode, Head: ch.Head,
		Started: j.started, Comments: []review.Comment{}, Shard: sc.shard, Config: sc.fingerprint(j)}
	in, err := c.agentInput(j, sc.repo, ch, p, sc.rules)
	if err != nil {
		return nil, err
	}
	in.Files = in.Files[:0] // in rank order: a budget stops the later ones
	for _, i := range sc.order {
		if f := p.Files[i]; f.Reviewed {
			in.Files = append(in.Files, agent.File{Path: f.Path, Diff: ch.Diffs[f.Path]})
		}
	}
	if len(in.Files) == 0 {
		c.logf("nothing to scan: %d file(s), none selected (see --preview)", len(p.Files))
		rv.Status, rv.Files, rv.Finished = review.StatusComplete, p.Files, time.Now()
		return rv, nil
	}
	in.Source = selection.GuardSecrets(sc.src)
	in.Background = scanNote + "\n" + in.Background
	return rv, c.callAgent(ctx, j, rv, p, in, sc.rules, true, j.reg.Without("file_read_diff"))
}
