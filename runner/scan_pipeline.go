package runner

import (
	"context"
	"time"

	"github.com/ocr-ci/ocr/agent"
	"github.com/ocr-ci/ocr/internal/app/config"
	"github.com/ocr-ci/ocr/internal/app/plan"
	"github.com/ocr-ci/ocr/internal/domain/selection"
	"github.com/ocr-ci/ocr/internal/domain/shard"
	"github.com/ocr-ci/ocr/review"
)

// scanNote tells the model what a scan is: the "diff" it sees is every
// file whole, and there is no change to compare against.
const scanNote = "This is a scan of existing code, not a change: each file is shown whole as added lines, " +
	"and there is no earlier version (file_read_diff is not offered). Review the code as it stands; every line may be commented on."

// scanPreview prints a scan's selection without calling a model.
func (c *Command) scanPreview(ctx context.Context, cfg *config.Config, opt plan.ScanOptions) error {
	sc, err := plan.ForScan(ctx, cfg, opt, c.logf)
	if err != nil {
		return err
	}
	defer sc.Close()
	w, closeOut, err := c.output(cfg.Output)
	if err != nil {
		return err
	}
	defer closeOut()
	if cfg.Format == "json" {
		return sc.Preview.WriteJSON(w)
	}
	return sc.Preview.WriteText(w)
}

// fullScan runs a scan: files → selection → agent → reporters → exit code.
func (c *Command) fullScan(ctx context.Context, j *job, opt plan.ScanOptions) int {
	if err := c.maskSecrets(j); err != nil {
		return c.fail(err)
	}
	ctx, cancel := j.deadline(ctx)
	defer cancel()
	sc, err := plan.ForScan(ctx, j.cfg, opt, c.logf)
	if err != nil {
		return c.fail(err)
	}
	defer sc.Close()
	p := sc.Preview
	c.logf("scan of %s%s: %d file(s), %d selected, %d left out by --max-files %d",
		sc.What(), shard.Text(opt.Shard), p.Totals.Files, p.Totals.Reviewed, sc.Cut, opt.MaxFiles)
	rv, err := c.scanAgent(ctx, j, sc)
	if err != nil {
		return c.fail(err)
	}
	c.markDeadline(ctx, rv)
	return c.publish(context.WithoutCancel(ctx), j, sc.Change, rv, heard{}) // a scan posts nothing
}

// scanAgent reviews the selected files in rank order with the tools
// reading from the scanned source, file_read_diff left out.
func (c *Command) scanAgent(ctx context.Context, j *job, sc *plan.Scan) (*review.Review, error) {
	ch, p := sc.Change, sc.Preview
	rv := &review.Review{Tool: "ocr", Version: Version, Mode: ch.Mode, Head: ch.Head,
		Started: j.started, Comments: []review.Comment{}, Shard: sc.Shard, Config: sc.Fingerprint(j.configHash(), j.cfg)}
	in, err := c.agentInput(j, &plan.Review{Repo: sc.Repo, Change: ch, Rules: sc.Rules, Preview: p})
	if err != nil {
		return nil, err
	}
	in.Files = in.Files[:0] // a budget stops the later ones
	for _, i := range sc.Order {
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
	return rv, c.callAgent(ctx, j, rv, agentWork{input: in, preview: p, rules: sc.Rules, reg: j.reg.Without("file_read_diff"), byDir: true})
}
