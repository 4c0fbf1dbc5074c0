package runner

import (
	"context"

	"github.com/ocr-ci/ocr/internal/app/config"
	"github.com/ocr-ci/ocr/internal/app/plan"
	"github.com/ocr-ci/ocr/internal/domain/shard"
	"github.com/ocr-ci/ocr/review/reportspec"
)

// scanSARIFCategory is the SARIF automationDetails id of a scan, so code
// scanning keeps scans and pull-request reviews (category "ocr/") apart.
const scanSARIFCategory = "ocr-scan"

// scan runs `ocr scan [--ref REF] [PATH...]`: whole files reviewed without
// a diff.
func (c *Command) scan(ctx context.Context, args []string) int {
	l, err := c.parse("scan", args)
	if err != nil {
		return c.fail(err)
	}
	cfg, opt := l.Config, plan.ScanOptions{Scan: l.Scan, MaxFiles: l.Config.MaxFiles, Paths: l.Args}
	if err := refusePosting(cfg); err != nil {
		return c.fail(err)
	}
	j, err := c.newJob(ctx, cfg)
	if err != nil {
		return c.fail(err)
	}
	c.dropPosting(j)
	if opt.Shard, err = shard.Resolve(cfg.Shard, j.env.GitLab.NodeIndex, j.env.GitLab.NodeTotal); err != nil {
		return c.fail(usagef("--shard (OCR_SHARD): %w", err))
	}
	if cfg.SarifCategory == "" {
		cfg.SarifCategory = scanSARIFCategory
		if opt.Shard != nil { // uploaded apart, shards must not replace each other
			cfg.SarifCategory = shard.Category(scanSARIFCategory, *opt.Shard)
		}
	}
	if cfg.Preview {
		return c.fail(c.scanPreview(ctx, cfg, opt))
	}
	return c.fullScan(ctx, j, opt)
}

// refusePosting refuses the reports asked for (--report, --format,
// OCR_REPORTS) that post to a pull or merge request, before anything else
// is checked; the CI's defaults are left to dropPosting.
func refusePosting(cfg *config.Config) error {
	specs, err := reportspec.ParseAll(cfg.ReportList()...)
	if _, api := reportspec.SplitAPI(specs); err == nil && len(api) > 0 && (len(cfg.Reports) > 0 || cfg.Format != "") {
		return usagef("%s posts to a pull or merge request, and ocr scan reviews files, not a pull request: "+
			"use sarif, codequality, json or text (for code scanning or the Code Quality widget)", api[0].Kind)
	}
	return usageIf(err)
}

// dropPosting leaves out the posting reports CI detection added to the
// defaults, with a notice.
func (c *Command) dropPosting(j *job) {
	files, api := reportspec.SplitAPI(j.specs)
	for _, s := range api {
		c.logf("%s left out: ocr scan does not post to a pull or merge request", s.Kind)
	}
	if j.specs = files; len(files) == 0 {
		j.specs = []reportspec.Spec{{Kind: reportspec.KindText, Path: reportspec.Stdout}}
	}
}

// usageIf marks err, if any, as a usage error.
func usageIf(err error) error {
	if err != nil {
		return usagef("%w", err)
	}
	return nil
}
