package runner

import (
	"context"
	"flag"
	"fmt"
	"strings"

	"github.com/ocr-ci/ocr/internal/app/cli"
	"github.com/ocr-ci/ocr/internal/app/config"
	"github.com/ocr-ci/ocr/internal/domain/shard"
	"github.com/ocr-ci/ocr/review"
	"github.com/ocr-ci/ocr/review/reportspec"
)

// DefaultScanMaxFiles is how many selected files `ocr scan` reviews when
// --max-files is not given; the others are reported not reviewed with
// reason "budget".
const DefaultScanMaxFiles = 100

// scanSARIFCategory is the SARIF automationDetails id of a scan, so code
// scanning keeps scans and pull-request reviews (category "ocr/") apart.
const scanSARIFCategory = "ocr-scan"

// scanOptions are the flags only `ocr scan` has.
type scanOptions struct {
	ref      string
	worktree bool
	since    string
	maxFiles int
	paths    []string      // as given: relative to --repo (change.ScanPaths)
	shard    *review.Shard // nil: everything selected
}

// scan runs `ocr scan [--ref REF] [PATH...]`: whole files reviewed without
// a diff.
func (c *Command) scan(ctx context.Context, args []string) int {
	cfg, opt, err := c.parseScan(args)
	if err != nil {
		return c.fail(err)
	}
	if err := refusePosting(cfg); err != nil {
		return c.fail(err)
	}
	j, err := c.newJob(ctx, cfg)
	if err != nil {
		return c.fail(err)
	}
	c.dropPosting(j)
	if opt.shard, err = shard.Resolve(cfg.Shard, j.env.GitLab.NodeIndex, j.env.GitLab.NodeTotal); err != nil {
		return c.fail(usagef("--shard (OCR_SHARD): %w", err))
	}
	if cfg.SarifCategory == "" {
		cfg.SarifCategory = scanSARIFCategory
		if opt.shard != nil { // uploaded apart, shards must not replace each other
			cfg.SarifCategory = shard.Category(scanSARIFCategory, *opt.shard)
		}
	}
	if cfg.Preview {
		return c.fail(c.scanPreview(ctx, cfg, opt))
	}
	return c.fullScan(ctx, j, opt)
}

// parseScan reads the environment and the flags of `ocr scan`: the review
// flags that make sense without a diff, plus --ref, --worktree and
// --max-files; flags and PATHs may be interleaved.
func (c *Command) parseScan(args []string) (*config.Config, scanOptions, error) {
	sub, opt := cli.Find("scan"), scanOptions{}
	if cli.WantsHelp(args) {
		var cfg config.Config
		if err := cli.PrintHelp(c.Stdout, sub, scanFlagSet(sub, &cfg, &opt)); err != nil {
			return nil, opt, err
		}
		return nil, opt, flag.ErrHelp
	}
	cfg, err := config.Load(c.lookup)
	if err != nil {
		return nil, opt, err
	}
	fs := scanFlagSet(sub, &cfg, &opt)
	var pos []string
	for rest := args; ; {
		if err := fs.Parse(rest); err != nil {
			return nil, opt, cli.ParseError(sub, fs, err)
		}
		if fs.NArg() == 0 {
			break
		}
		pos, rest = append(pos, fs.Arg(0)), fs.Args()[1:]
	}
	if err := checkScanFlags(&cfg, fs, &opt); err != nil {
		return nil, opt, err
	}
	// --max-files / OCR_MAX_FILES as for review, with a scan's own default:
	// a whole repository is bigger than a pull request.
	if cfg.MaxFiles == 0 {
		cfg.MaxFiles = DefaultScanMaxFiles
	}
	opt.maxFiles, opt.paths = cfg.MaxFiles, pos
	if err := cfg.Validate(); err != nil {
		return nil, opt, err
	}
	return &cfg, opt, nil
}

// scanFlagSet is scan's flags over cfg and opt: the review flags it takes,
// --ref and --worktree, and review's range flags, parsed only so that
// checkScanFlags can say they are review's.
func scanFlagSet(sub *cli.Command, cfg *config.Config, opt *scanOptions) *flag.FlagSet {
	fs := cli.FlagSet(sub, cfg)
	fs.StringVar(&opt.ref, "ref", "", "commit or `REF` whose files are scanned (default HEAD; in a repository)")
	fs.BoolVar(&opt.worktree, "worktree", false, "scan the work tree (tracked and untracked, not ignored files) instead of a commit")
	fs.StringVar(&opt.since, "since", "", "scan only the files changed since `REF` (whole files; in a repository)")
	fs.StringVar(&cfg.Shard, "shard", cfg.Shard, "review part `I/N` of the selection (in GitLab, default CI_NODE_INDEX/CI_NODE_TOTAL); merge the parts' JSON reports with ocr merge")
	if f := fs.Lookup("max-files"); f != nil {
		f.Usage = fmt.Sprintf("files reviewed at most (default %d for a scan); the others are reported with reason budget", DefaultScanMaxFiles)
	}
	review := flag.NewFlagSet("review", flag.ContinueOnError)
	cfg.Bind(review)
	for _, name := range []string{"from", "to", "commit", "full"} {
		f := review.Lookup(name)
		fs.Var(f.Value, name, f.Usage)
	}
	return fs
}

// checkScanFlags refuses the review flags that name a diff, and bad
// --ref/--worktree values.
func checkScanFlags(cfg *config.Config, fs *flag.FlagSet, opt *scanOptions) error {
	var err error
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "from", "to", "commit", "full":
			err = usagef("ocr scan reviews whole files, not a diff: --%s is for ocr review (scan a commit with --ref)", f.Name)
		}
	})
	// The range the environment names (OCR_FROM, OCR_COMMIT) is a review's.
	cfg.From, cfg.To, cfg.Commit = "", "", ""
	switch {
	case err != nil:
		return err
	case opt.ref != "" && opt.worktree:
		return usagef("give either --ref or --worktree, not both")
	case strings.HasPrefix(opt.ref, "-") || strings.HasPrefix(opt.since, "-"):
		return usagef("--ref or --since %q begins with '-': refs like that are refused so git cannot take them for options", opt.ref+opt.since)
	}
	return nil
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
