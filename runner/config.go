package runner

import (
	"flag"
	"strings"
	"time"

	"github.com/kelseyhightower/envconfig"
)

// Config is everything `ocr review` needs, read once from the environment
// (OCR_* variables, through envconfig) and then from flags, which win.
// The zero value of every field means its default.
type Config struct {
	// Repo is the repository to review; empty means the current directory.
	Repo string `envconfig:"REPO"`
	// From and To select range mode: merge-base(From, To)..To.
	From string `envconfig:"FROM"`
	To   string `envconfig:"TO"`
	// Commit selects commit mode: Commit against its first parent.
	Commit string `envconfig:"COMMIT"`
	// Preview runs selection only, no model.
	Preview bool `envconfig:"PREVIEW"`
	// Format and Output are shorthands for one report: --format json --output FILE.
	Format string `envconfig:"FORMAT"`
	Output string `envconfig:"OUTPUT"`
	// Reports are KIND[=PATH] report specs.
	Reports []string `envconfig:"REPORTS"`
	// Exclude and Include are doublestar globs for file selection.
	Exclude []string `envconfig:"EXCLUDE"`
	Include []string `envconfig:"INCLUDE"`
	// IncludeTests reviews test files (skipped by default).
	IncludeTests bool `envconfig:"INCLUDE_TESTS"`
	// MaxGitProcs bounds concurrent git processes (default 16).
	MaxGitProcs int `envconfig:"MAX_GIT_PROCS"`
	// MaxFileTokens is the largest diff of one file that is reviewed, in
	// estimated tokens (default 60,000); larger ones are too_large.
	MaxFileTokens int `envconfig:"MAX_FILE_TOKENS"`
	// MaxDiffMB is the diff budget, in MiB of parser cost (bytes plus 64
	// per line), checked before parsing (default 128); files past it are
	// too_large. Negative: none.
	MaxDiffMB int `envconfig:"MAX_DIFF_MB"`
	// MaxFiles caps the files reviewed per run (default 300, 100 for a
	// fork's pull request); the rest are not reviewed (too_many). Negative: none.
	MaxFiles int `envconfig:"MAX_FILES"`
	// Tools replaces the tool registry (JSON file).
	Tools string `envconfig:"TOOLS"`
	// Rule is a rule.json file that wins over the repository's own.
	Rule string `envconfig:"RULE"`
	// ConfigRef is the trusted ref that repository configuration (.ocr/) is
	// read from; empty means the reviewed ref outside CI.
	ConfigRef string `envconfig:"CONFIG_REF"`
	// Language is the language comments are written in (default English).
	Language string `envconfig:"LANGUAGE"`
	// Background is extra context for the model; BackgroundFile reads it from a file.
	Background     string `envconfig:"BACKGROUND"`
	BackgroundFile string `envconfig:"BACKGROUND_FILE"`
	// Model overrides OCR_LLM_MODEL.
	Model string `envconfig:"MODEL"`
	// Concurrency is the number of groups reviewed at once (default 8).
	Concurrency int `envconfig:"CONCURRENCY"`
	// Timeout bounds one group's review (default 10m).
	Timeout time.Duration `envconfig:"TIMEOUT"`
	// MaxTokensBudget bounds the prompt + completion tokens of the run
	// (default 5,000,000; 1,000,000 for a fork's pull request); files left
	// when it is spent are not reviewed (budget). Negative: none.
	MaxTokensBudget int `envconfig:"MAX_TOKENS_BUDGET"`
	// MaxComments caps comments per run (default 50); per file is a fifth of it, at least 5.
	MaxComments int `envconfig:"MAX_COMMENTS"`
	// MaxInline caps inline comments per posted review (default 30).
	MaxInline int `envconfig:"MAX_INLINE"`
	// NoFilter skips the reflection filter.
	NoFilter bool `envconfig:"NO_FILTER"`
	// Effort is "normal" or "high" (a second review round).
	Effort string `envconfig:"EFFORT"`
	// FailOn is the severity gate: critical|high|medium|low|never (default never).
	FailOn string `envconfig:"FAIL_ON"`
	// AllowPartial makes an incomplete review exit 0/1 instead of 3.
	AllowPartial bool `envconfig:"ALLOW_PARTIAL"`
	// SarifFile is where the default SARIF report of a CI run is written.
	SarifFile string `envconfig:"SARIF_FILE"`
	// SarifCategory is the SARIF automationDetails id.
	SarifCategory string `envconfig:"SARIF_CATEGORY"`
	// Full disables incremental reviews of pull requests.
	Full bool `envconfig:"FULL"`

	// fromIsGuess is set when From was guessed by CI detection (the default
	// branch of a new branch's push) and may be missing from the clone.
	fromIsGuess bool
}

// loadEnv reads the OCR_* variables.
func loadEnv() (Config, error) {
	var c Config
	if err := envconfig.Process("OCR", &c); err != nil {
		return c, usagef("could not read the OCR_* environment: %w", err)
	}
	return c, nil
}

// bind registers the review flags on fs with the environment's values as
// defaults, so a flag given on the command line wins.
func (c *Config) bind(fs *flag.FlagSet) {
	fs.StringVar(&c.Repo, "repo", c.Repo, "repository to review (default: current directory) [OCR_REPO]")
	fs.StringVar(&c.From, "from", c.From, "base of the range: review merge-base(FROM, TO)..TO [OCR_FROM]")
	fs.StringVar(&c.To, "to", c.To, "head of the range [OCR_TO]")
	fs.StringVar(&c.Commit, "commit", c.Commit, "review one commit against its first parent [OCR_COMMIT]")
	fs.BoolVar(&c.Preview, "preview", c.Preview, "select files and print them; no model is called")
	fs.StringVar(&c.Format, "format", c.Format, "shorthand for one report: text or json (and the other report kinds)")
	fs.StringVar(&c.Output, "output", c.Output, "file for --format (default: stdout)")
	fs.Var(newList(&c.Reports), "report", "report KIND[=PATH], repeatable [OCR_REPORTS]")
	fs.Var(newList(&c.Exclude), "exclude", "glob of files not to review, repeatable [OCR_EXCLUDE]")
	fs.Var(newList(&c.Include), "include", "glob of files to review even if excluded by default, repeatable [OCR_INCLUDE]")
	fs.BoolVar(&c.IncludeTests, "include-tests", c.IncludeTests, "review test files too")
	fs.IntVar(&c.MaxGitProcs, "max-git-procs", c.MaxGitProcs, "concurrent git processes (default 16)")
	fs.IntVar(&c.MaxFileTokens, "max-file-tokens", c.MaxFileTokens, "largest file diff reviewed, in tokens (default 60000)")
	fs.IntVar(&c.MaxDiffMB, "max-diff-mb", c.MaxDiffMB, "diff budget checked before parsing, MiB (default 128; -1: none)")
	fs.IntVar(&c.MaxFiles, "max-files", c.MaxFiles, "files reviewed per run (default 300, forks 100; -1: none)")
	c.bindAgent(fs)
}

// bindAgent registers the flags that shape the model's work and the outputs.
func (c *Config) bindAgent(fs *flag.FlagSet) {
	fs.StringVar(&c.Tools, "tools", c.Tools, "tools.json replacing the tool registry [OCR_TOOLS]")
	fs.StringVar(&c.Rule, "rule", c.Rule, "rule.json that wins over the repository's [OCR_RULE]")
	fs.StringVar(&c.ConfigRef, "config-ref", c.ConfigRef, "trusted ref to read .ocr/ configuration from [OCR_CONFIG_REF]")
	fs.StringVar(&c.Language, "language", c.Language, "language of the comments (default English)")
	fs.StringVar(&c.Background, "background", c.Background, "background for the reviewer")
	fs.StringVar(&c.BackgroundFile, "background-file", c.BackgroundFile, "file with background for the reviewer")
	fs.StringVar(&c.Model, "model", c.Model, "model name (overrides OCR_LLM_MODEL)")
	fs.IntVar(&c.Concurrency, "concurrency", c.Concurrency, "groups reviewed at once (default 8)")
	fs.DurationVar(&c.Timeout, "timeout", c.Timeout, "time limit per group (default 10m)")
	fs.IntVar(&c.MaxTokensBudget, "max-tokens-budget", c.MaxTokensBudget, "token budget of the run, prompt + completion (default 5000000, forks 1000000; -1: none)")
	fs.IntVar(&c.MaxComments, "max-comments", c.MaxComments, "comments per run (default 50)")
	fs.IntVar(&c.MaxInline, "max-inline", c.MaxInline, "inline comments per posted review (default 30)")
	fs.BoolVar(&c.NoFilter, "no-filter", c.NoFilter, "skip the reflection filter")
	fs.StringVar(&c.Effort, "effort", c.Effort, "normal or high (adds a second round)")
	fs.StringVar(&c.FailOn, "fail-on", c.FailOn, "exit 1 on a comment at or above: critical|high|medium|low|never")
	fs.BoolVar(&c.AllowPartial, "allow-partial", c.AllowPartial, "do not exit 3 when the review is incomplete")
	fs.StringVar(&c.SarifFile, "sarif-file", c.SarifFile, "SARIF file of the default CI reports (default ocr.sarif)")
	fs.StringVar(&c.SarifCategory, "sarif-category", c.SarifCategory, "SARIF automationDetails id")
	fs.BoolVar(&c.Full, "full", c.Full, "review the whole pull request, not only what changed since the last review")
}

// validate checks combinations and fills defaults.
func (c *Config) validate() error {
	switch {
	case c.From != "" && c.To == "":
		return usagef("--from needs --to: give both ends of the range (or use --commit)")
	case c.To != "" && c.From == "":
		return usagef("--to needs --from: give both ends of the range (or use --commit)")
	case c.Commit != "" && c.From != "":
		return usagef("give either a range (--from/--to) or --commit, not both")
	}
	switch c.Effort {
	case "", "normal", "high":
	default:
		return usagef("--effort %q: want normal or high", c.Effort)
	}
	for _, ref := range []string{c.From, c.To, c.Commit, c.ConfigRef} {
		if strings.HasPrefix(ref, "-") {
			return usagef("ref %q begins with '-': refs like that are refused so git cannot take them for options", ref)
		}
	}
	c.defaults()
	return nil
}

// defaults fills the zero values.
func (c *Config) defaults() {
	setDefault(&c.MaxGitProcs, 16)
	setDefault(&c.MaxFileTokens, 60000)
	setIfZero(&c.MaxDiffMB, defaultMaxDiffMB)
	setIfZero(&c.MaxFiles, defaultMaxFiles)
	setIfZero(&c.MaxTokensBudget, defaultMaxTokens)
	setDefault(&c.Concurrency, 8)
	setDefault(&c.MaxComments, 50)
	setDefault(&c.MaxInline, 30)
	if c.Timeout <= 0 {
		c.Timeout = 10 * time.Minute
	}
	if c.SarifFile == "" {
		c.SarifFile = "ocr.sarif"
	}
	if c.Repo == "" {
		c.Repo = "."
	}
}

func setDefault(v *int, d int) {
	if *v <= 0 {
		*v = d
	}
}

// mode names the review mode the configuration selects.
func (c *Config) mode() string {
	switch {
	case c.Commit != "":
		return "commit"
	case c.From != "":
		return "range"
	}
	return "workspace"
}

// listFlag is a repeatable flag that also accepts comma-separated values.
// The first use on the command line replaces the environment's list.
type listFlag struct {
	vals *[]string
	set  bool
}

func newList(v *[]string) *listFlag { return &listFlag{vals: v} }

func (l *listFlag) String() string {
	if l == nil || l.vals == nil {
		return ""
	}
	return strings.Join(*l.vals, ",")
}

// Set adds comma-separated values.
func (l *listFlag) Set(v string) error {
	if !l.set {
		*l.vals, l.set = nil, true
	}
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			*l.vals = append(*l.vals, s)
		}
	}
	return nil
}

var _ flag.Value = (*listFlag)(nil)
