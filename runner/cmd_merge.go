package runner

import (
	"context"

	"github.com/ocr-ci/ocr/internal/app/config"
	"github.com/ocr-ci/ocr/internal/app/envinfo"
	"github.com/ocr-ci/ocr/internal/app/setup"
	"github.com/ocr-ci/ocr/internal/domain/change"
	"github.com/ocr-ci/ocr/internal/domain/merge"
	"github.com/ocr-ci/ocr/reporters"
	"github.com/ocr-ci/ocr/reporters/jsonreport"
)

// merge runs `ocr merge REPORT.json...`: the JSON reports of a sharded
// scan's parts written as the reports of one run. A missing part is named
// and the run exits 3 after writing what it has, even with --allow-partial.
func (c *Command) merge(ctx context.Context, args []string) int {
	l, err := c.parse("merge", args)
	if err != nil {
		return c.fail(err)
	}
	cfg, paths := l.Config, l.Args
	in, err := merge.Read(paths, cfg.ReadFile, jsonreport.Decode)
	if err != nil {
		return c.fail(usagef("%w", err))
	}
	res, err := merge.Reviews(in)
	if err != nil {
		return c.fail(usagef("%w", err))
	}
	if cfg.SarifCategory == "" && res.Review.Mode == "scan" {
		cfg.SarifCategory = scanSARIFCategory // one category for the whole scan
	}
	j, err := c.mergeJob(cfg)
	if err != nil {
		return c.fail(err)
	}
	c.logf("merging %d report(s) of %s%s", len(in), envinfo.OrDash(res.Review.Head), res.Text())
	code := c.publish(ctx, j, &change.Change{}, res.Review, heard{}) // a merge posts nothing
	if len(res.Missing) > 0 {
		c.logf("incomplete: shard(s) %v of %d missing; run their jobs again and merge every shard's report", res.Missing, res.Total)
		return reporters.ExitIncomplete
	}
	return code
}

// mergeJob is what writing the reports needs (setup.ForMerge), posting
// refused.
func (c *Command) mergeJob(cfg *config.Config) (*job, error) {
	if err := refusePosting(cfg); err != nil {
		return nil, err
	}
	r, err := setup.ForMerge(cfg, c.lookup)
	if err != nil {
		return nil, err
	}
	return jobOf(cfg, r), nil
}
