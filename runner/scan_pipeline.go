package runner

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	"github.com/ocr-ci/ocr/agent"
	"github.com/ocr-ci/ocr/agent/grouping"
	"github.com/ocr-ci/ocr/internal/app/config"
	"github.com/ocr-ci/ocr/internal/app/preview"
	"github.com/ocr-ci/ocr/internal/domain/change"
	"github.com/ocr-ci/ocr/internal/domain/rules"
	"github.com/ocr-ci/ocr/internal/domain/selection"
	"github.com/ocr-ci/ocr/internal/domain/shard"
	"github.com/ocr-ci/ocr/internal/infra/git"
	"github.com/ocr-ci/ocr/review"
)

// scanNote tells the model what a scan is: the "diff" it sees is every
// file whole, and there is no change to compare against.
const scanNote = "This is a scan of existing code, not a change: each file is shown whole as added lines, " +
	"and there is no earlier version (file_read_diff is not offered). Review the code as it stands; every line may be commented on."

// recentCommits bounds the history read to rank a scan's files.
const recentCommits = 1000

// scanned is the deterministic part of a scan: where files are read, the
// synthesised change, the rules and the selection.
type scanned struct {
	*change.ScanSource
	change  *change.Change
	rules   *rules.Set
	preview preview.Preview
	cut     int   // selected files left out by --max-files
	order   []int // the reviewed files of preview, in rank order
	paths   []string
	since   string // the commit of --since
	shard   *review.Shard
}

// prepareScan opens the repository (or the plain directory), lists and
// reads the files to scan, selects them as a review would, keeps the
// shard's part and ranks it for the --max-files cut.
func (c *Command) prepareScan(ctx context.Context, cfg *config.Config, opt scanOptions) (*scanned, error) {
	src, err := change.OpenScan(ctx, cfg.Repo, opt.Ref, opt.Worktree, git.Options{MaxProcs: cfg.MaxGitProcs, Logf: c.logf})
	if err != nil {
		return nil, err
	}
	sc := &scanned{ScanSource: src, shard: opt.shard}
	if err := c.loadScan(ctx, cfg, opt, sc); err != nil {
		closeRepo(sc.Repo)
		return nil, err
	}
	files := selection.FilesByPath(sc.change.Files, sc.change.Diffs, scanSelection(cfg))
	if files = sc.rules.ApplySelection(files); opt.shard != nil {
		files = shard.Select(files, sc.change.Diffs, *opt.shard, bundleGroups) // before the costly secrets scan
	}
	files = selection.ScanSecrets(files, sc.change.Diffs)
	recent, err := sc.Recent(ctx, recentCommits)
	if err != nil {
		c.logf("files ranked without the history: %v", err)
	}
	rank := selection.NewRanker(recent)
	sc.order = rank.Order(files)
	sc.cut = rank.CapRanked(files, sc.order, opt.maxFiles, review.ReasonBudget, fmt.Sprintf("beyond --max-files %d", opt.maxFiles),
		"narrow the PATHs, add --exclude, shard the scan or raise --max-files")
	sc.preview = preview.New(sc.change, files)
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
	if sc.paths, err = change.ScanPaths(opt.paths, sc.Top(), cfg.Repo); err != nil {
		return err
	}
	var only []string
	if opt.Since != "" {
		if only, sc.since, err = sc.Since(ctx, opt.Since); err != nil {
			return err
		}
	}
	if sc.change, err = change.Scan(ctx, sc.Src, "scan", sc.Head, sc.paths, only, scanSelection(cfg).DecidedByPath); err != nil {
		return err
	}
	var repo *git.Repo
	if !sc.Plain {
		repo = sc.Repo
	}
	sc.rules, err = loadRules(ctx, cfg, repo, configRef(cfg, sc.change))
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

// scanPreview prints a scan's selection without calling a model.
func (c *Command) scanPreview(ctx context.Context, cfg *config.Config, opt scanOptions) error {
	sc, err := c.prepareScan(ctx, cfg, opt)
	if err != nil {
		return err
	}
	defer closeRepo(sc.Repo)
	w, closeOut, err := c.output(cfg.Output)
	if err != nil {
		return err
	}
	defer closeOut()
	if cfg.Format == "json" {
		return sc.preview.WriteJSON(w)
	}
	return sc.preview.WriteText(w)
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
	defer closeRepo(sc.Repo)
	p := sc.preview
	c.logf("scan of %s%s: %d file(s), %d selected, %d left out by --max-files %d",
		sc.What(), shard.Text(opt.shard), p.Totals.Files, p.Totals.Reviewed, sc.cut, opt.maxFiles)
	rv, err := c.scanAgent(ctx, j, sc)
	if err != nil {
		return c.fail(err)
	}
	c.markDeadline(ctx, rv)
	return c.publish(context.WithoutCancel(ctx), j, sc.change, rv, heard{}) // a scan posts nothing
}

// scanAgent reviews the selected files in rank order with the tools
// reading from the scanned source, file_read_diff left out.
func (c *Command) scanAgent(ctx context.Context, j *job, sc *scanned) (*review.Review, error) {
	ch, p := sc.change, sc.preview
	rv := &review.Review{Tool: "ocr", Version: Version, Mode: ch.Mode, Head: ch.Head,
		Started: j.started, Comments: []review.Comment{}, Shard: sc.shard, Config: sc.fingerprint(j)}
	in, err := c.agentInput(j, &prepared{repo: sc.Repo, change: ch, rules: sc.rules, preview: p})
	if err != nil {
		return nil, err
	}
	in.Files = in.Files[:0] // a budget stops the later ones
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
	in.Source = selection.GuardSecrets(sc.Src)
	in.Background = scanNote + "\n" + in.Background
	return rv, c.callAgent(ctx, j, rv, agentWork{input: in, preview: p, rules: sc.rules, reg: j.reg.Without("file_read_diff"), byDir: true})
}

// fingerprint is the scan's configuration fingerprint: what shapes the
// findings (configHash) and what the scan covers, the same for every shard.
func (sc *scanned) fingerprint(j *job) string {
	total := 0
	if sc.shard != nil {
		total = sc.shard.Total
	}
	data, _ := json.Marshal([]any{j.configHash(), sc.paths, sc.since, sc.Head == "" && !sc.Plain, j.cfg.MaxFiles, j.cfg.MaxFileTokens, total})
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:8])
}
