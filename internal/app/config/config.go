// Package config is ocr's configuration: the Config type, its defaults and
// validation, and the one loader that reads it from an environment lookup
// (OCR_* variables by their exact names, the LLM provider variables) before
// the flags, which win. Nothing else in ocr reads settings from the
// environment; CI detection (internal/app/ci) reads the CI's own variables.
package config

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ocr-ci/ocr/review/reportspec"
)

// Config is everything `ocr review` needs, read once from the environment
// (OCR_* variables, by Load) and then from flags, which win.
// The zero value of every field means its default.
type Config struct {
	// Repo is the repository to review; empty means the current directory.
	Repo string `env:"OCR_REPO"`
	// From and To select range mode: merge-base(From, To)..To; To
	// defaults to HEAD when only From is given.
	From string `env:"OCR_FROM"`
	To   string `env:"OCR_TO"`
	// Commit selects commit mode: Commit against its first parent.
	Commit string `env:"OCR_COMMIT"`
	// Preview runs selection only, no model.
	Preview bool `env:"OCR_PREVIEW"`
	// Format and Output are shorthands for one report: --format json --output FILE.
	Format string `env:"OCR_FORMAT"`
	Output string `env:"OCR_OUTPUT"`
	// Reports are KIND[=PATH] report specs.
	Reports []string `env:"OCR_REPORTS"`
	// Exclude and Include are doublestar globs for file selection.
	Exclude []string `env:"OCR_EXCLUDE"`
	Include []string `env:"OCR_INCLUDE"`
	// IncludeTests reviews test files (skipped by default).
	IncludeTests bool `env:"OCR_INCLUDE_TESTS"`
	// MaxGitProcs bounds concurrent git processes (default 16).
	MaxGitProcs int `env:"OCR_MAX_GIT_PROCS"`
	// MaxFileTokens is the largest diff of one file that is reviewed, in
	// estimated tokens (default 60,000); larger ones are too_large.
	MaxFileTokens int `env:"OCR_MAX_FILE_TOKENS"`
	// MaxDiffMB is the diff budget, in MiB of parser cost (bytes plus 64
	// per line), checked before parsing (default 128); files past it are
	// too_large. Negative: none.
	MaxDiffMB int `env:"OCR_MAX_DIFF_MB"`
	// MaxFiles caps the files reviewed per run (default 300, 100 for a
	// fork's pull request); the rest are not reviewed (too_many).
	MaxFiles int `env:"OCR_MAX_FILES"`
	// Tools replaces the tool registry (JSON file).
	Tools string `env:"OCR_TOOLS"`
	// Rule is a rule.json file that wins over the repository's own.
	Rule string `env:"OCR_RULE"`
	// ConfigRef is the trusted ref that repository configuration (.ocr/) is
	// read from; empty means the reviewed ref outside CI.
	ConfigRef string `env:"OCR_CONFIG_REF"`
	// Language is the language comments are written in (default English).
	Language string `env:"OCR_LANGUAGE"`
	// Background is extra context for the model; BackgroundFile reads it from a file.
	Background     string `env:"OCR_BACKGROUND"`
	BackgroundFile string `env:"OCR_BACKGROUND_FILE"`
	// Model overrides OCR_LLM_MODEL.
	Model string `env:"OCR_MODEL"`
	// Concurrency is the number of groups reviewed at once (default 8).
	Concurrency int `env:"OCR_CONCURRENCY"`
	// Timeout is the whole run's deadline (default 20m, below common CI job
	// limits): when it is reached, ocr stops, writes every report marked
	// incomplete and exits 3.
	Timeout time.Duration `env:"OCR_TIMEOUT"`
	// MaxTokensBudget bounds the prompt + completion tokens of the run
	// (default 5,000,000; 1,000,000 for a fork's pull request); files left
	// when it is spent are not reviewed (budget). 0 means the default;
	// a large number lifts it.
	MaxTokensBudget int `env:"OCR_MAX_TOKENS_BUDGET"`
	// MaxCost caps what the run's tokens cost at the prices below (0:
	// none); it needs OCR_PRICE_INPUT and OCR_PRICE_OUTPUT.
	MaxCost float64 `env:"OCR_MAX_COST"`
	// PriceInput, PriceOutput and PriceCachedInput are the model's prices
	// per million tokens (cached: the prompt tokens the provider reports
	// as cached; default the input price). Without them no cost is shown.
	PriceInput       float64 `env:"OCR_PRICE_INPUT"`
	PriceOutput      float64 `env:"OCR_PRICE_OUTPUT"`
	PriceCachedInput float64 `env:"OCR_PRICE_CACHED_INPUT"`
	// MaxComments caps comments per run (default 50); per file is a fifth of it, at least 5.
	MaxComments int `env:"OCR_MAX_COMMENTS"`
	// MaxInline caps the new inline comments of a push (default 10): the
	// most severe are posted, the rest counted in the summary.
	MaxInline int `env:"OCR_MAX_INLINE"`
	// PostMinSeverity is the posting floor (default medium): findings
	// below it are not posted, only listed, folded, in the summaries.
	PostMinSeverity string `env:"OCR_POST_MIN_SEVERITY"`
	// NoFilter skips the reflection filter.
	NoFilter bool `env:"OCR_NO_FILTER"`
	// Effort is "normal" or "high" (a second review round).
	Effort string `env:"OCR_EFFORT"`
	// Passes is how many times each group is reviewed independently
	// (default 1); with more, a finding is kept when MinVotes passes found it.
	Passes int `env:"OCR_PASSES"`
	// MinVotes is how many passes must find a finding for it to be kept
	// (default: a majority of Passes).
	MinVotes int `env:"OCR_MIN_VOTES"`
	// FailOn is the severity gate: critical|high|medium|low|never (default never).
	FailOn string `env:"OCR_FAIL_ON"`
	// AllowPartial makes an incomplete review exit 0/1 instead of 3.
	AllowPartial bool `env:"OCR_ALLOW_PARTIAL"`
	// SarifFile is where the default SARIF report of a CI run is written.
	SarifFile string `env:"OCR_SARIF_FILE"`
	// SarifCategory is the SARIF automationDetails id.
	SarifCategory string `env:"OCR_SARIF_CATEGORY"`
	// Shard is the part of a scan to review, "I/N" (`ocr scan --shard`);
	// "" reviews everything (or, in a GitLab job with `parallel: N`, the
	// job's part).
	Shard string `env:"OCR_SHARD"`
	// Full disables incremental reviews of pull requests.
	Full bool `env:"OCR_FULL"`
	// Verbose lists every file not reviewed in the text report.
	Verbose bool `env:"OCR_VERBOSE"`
	// Quiet leaves out the progress lines (each group's start and end, the
	// heartbeat) on stderr.
	Quiet bool `env:"OCR_QUIET"`
	// GitHubLogin is the account a bot token (GITHUB_TOKEN, a GitHub App
	// installation token) posts as, e.g. "my-app[bot]"; only its comments
	// count as ocr's own. Empty means github-actions[bot], GITHUB_TOKEN's.
	GitHubLogin string `env:"OCR_GITHUB_LOGIN"`
	// LinkAllow are hosts whose links model text may keep in posted
	// comments, besides the forge's own (comma-separated).
	LinkAllow []string `env:"OCR_LINK_ALLOW"`

	// The conversation settings (comment events; see chat.go and
	// docs/conversation.md).
	// ChatHandle is the name people mention: "@ocr" (default "ocr").
	ChatHandle string `env:"OCR_HANDLE"`
	// ChatReplies is "mention" (default: a reply in ocr's thread is
	// answered when it mentions the handle) or "all" (every trusted reply).
	ChatReplies string `env:"OCR_CHAT_REPLIES"`
	// ChatTrust lists who may ask: GitHub author associations (default
	// OWNER, MEMBER, COLLABORATOR), and "author" for the pull request's author.
	ChatTrust []string `env:"OCR_CHAT_TRUST"`
	// ChatUntrusted is "reply" (default: a short fixed reply) or "silent".
	ChatUntrusted string `env:"OCR_CHAT_UNTRUSTED"`
	// ChatMaxRequests and ChatMaxTokens cap one answer (default 8 requests,
	// 100,000 tokens; a fork's pull request 4 and 50,000).
	ChatMaxRequests int `env:"OCR_CHAT_MAX_REQUESTS"`
	ChatMaxTokens   int `env:"OCR_CHAT_MAX_TOKENS"`

	// FromIsGuess is set when From was guessed by CI detection (the default
	// branch of a new branch's push) and may be missing from the clone.
	FromIsGuess bool
	// Loaded holds the settings files (--rule, --background-file, --tools)
	// once read from their trusted source (see FileSource), by flag name.
	// A setting missing from it is read from disk.
	Loaded map[string][]byte

	// Dir is the working directory relative paths start from (--repo, the
	// report files, the settings files); "" means the process's. The
	// runner sets it from its Command; no flag or variable does.
	Dir string

	// given are the caps before Defaults (see ForkCaps).
	given givenCaps
}

// Path is p resolved against Dir: p itself when it is absolute or Dir is
// "" (the process's working directory resolves it).
func (c *Config) Path(p string) string {
	if c.Dir == "" || p == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(c.Dir, p)
}

// Getwd is the working directory relative paths start from: Dir, else
// the process's.
func (c *Config) Getwd() (string, error) {
	if c.Dir != "" {
		return c.Dir, nil
	}
	return os.Getwd()
}

// Bind registers the review flags on fs with the environment's values as
// defaults, so a flag given on the command line wins. A `NAME` in a usage
// string is the value's placeholder in help; the variable of each flag is
// added by the help (FlagEnv), not written here.
func (c *Config) Bind(fs *flag.FlagSet) {
	fs.StringVar(&c.Repo, "repo", c.Repo, "`DIR` of the repository to review (default: the current directory)")
	fs.StringVar(&c.From, "from", c.From, "review the range merge-base(`REF`, --to)..--to, e.g. --from origin/main")
	fs.StringVar(&c.To, "to", c.To, "head `REF` of the range (default HEAD)")
	fs.StringVar(&c.Commit, "commit", c.Commit, "review one commit `REF` against its first parent, e.g. --commit HEAD")
	fs.BoolVar(&c.Preview, "preview", c.Preview, "print which files would be reviewed; no model is called")
	fs.StringVar(&c.Format, "format", c.Format, "one report of `KIND` "+strings.Join(FormatKinds(), ", ")+" (default text), to --output or stdout")
	fs.StringVar(&c.Output, "output", c.Output, "`FILE` for --format (default: stdout)")
	fs.Var(newList(&c.Reports), "report", "report `KIND[=PATH]`, repeatable; the kinds: "+kindNames())
	fs.Var(newList(&c.Exclude), "exclude", "`GLOB` of files not to review, repeatable")
	fs.Var(newList(&c.Include), "include", "`GLOB` of files to review even if excluded by default, repeatable")
	fs.BoolVar(&c.IncludeTests, "include-tests", c.IncludeTests, "review test files too")
	bindInt(fs, &c.MaxGitProcs, "max-git-procs", "concurrent git processes (default 16)")
	bindInt(fs, &c.MaxFileTokens, "max-file-tokens", "largest diff of one file reviewed, in estimated tokens (default 60000)")
	bindInt(fs, &c.MaxDiffMB, "max-diff-mb", "diff budget checked before parsing, in MiB (default 128)")
	bindInt(fs, &c.MaxFiles, "max-files", "files reviewed per run (default 300, fork pull requests 100)")
	fs.BoolVar(&c.Verbose, "verbose", c.Verbose, "list every file not reviewed in the text report, not one line per reason")
	fs.BoolVar(&c.Quiet, "quiet", c.Quiet, "no progress lines (each group's start and end, the heartbeat); warnings, errors and the summary stay")
	c.bindAgent(fs)
}

// bindAgent registers the flags that shape the model's work and the outputs.
func (c *Config) bindAgent(fs *flag.FlagSet) {
	fs.StringVar(&c.Tools, "tools", c.Tools, "tools.json `FILE` replacing the tool registry")
	fs.StringVar(&c.Rule, "rule", c.Rule, "rule.json `FILE` that wins over the repository's .ocr/rule.json")
	fs.StringVar(&c.ConfigRef, "config-ref", c.ConfigRef, "trusted `REF` that .ocr/ configuration is read from (default: the base in CI)")
	fs.StringVar(&c.Language, "language", c.Language, "`LANGUAGE` of the comments (default English)")
	fs.StringVar(&c.Background, "background", c.Background, "background `TEXT` for the reviewer")
	fs.StringVar(&c.BackgroundFile, "background-file", c.BackgroundFile, "`FILE` with background for the reviewer")
	fs.StringVar(&c.Model, "model", c.Model, "`NAME` of the model; wins over the endpoint's OCR_LLM_MODEL, as its variable OCR_MODEL does")
	bindInt(fs, &c.Concurrency, "concurrency", "groups of files reviewed at once (default 8)")
	fs.Var(&durationFlag{p: &c.Timeout}, "timeout", "`DURATION` of the whole run; when reached, every report is written marked incomplete and ocr exits 3 (default 20m)")
	bindInt(fs, &c.MaxTokensBudget, "max-tokens-budget", "token budget of the run, prompt + completion (default 5000000, fork pull requests 1000000)")
	fs.Float64Var(&c.MaxCost, "max-cost", c.MaxCost, "cost limit of the run, an `AMOUNT` at the OCR_PRICE_* prices (0: none)")
	bindInt(fs, &c.MaxComments, "max-comments", "comments per run, a fifth of it (at least 5) per file (default 50)")
	bindInt(fs, &c.MaxInline, "max-inline", "new inline comments per push, the most severe first; the rest are counted in the summary (default 10)")
	fs.StringVar(&c.PostMinSeverity, "post-min-severity", c.PostMinSeverity, "post only comments at or above `SEVERITY`: critical, high, medium or low (default medium); the others stay in the reports and the summary")
	fs.BoolVar(&c.NoFilter, "no-filter", c.NoFilter, "skip the reflection filter")
	fs.StringVar(&c.Effort, "effort", c.Effort, "`EFFORT` normal or high (high adds a second round)")
	bindInt(fs, &c.Passes, "passes", "independent reviews of each group; a finding is kept when a majority found it (default 1)")
	bindInt(fs, &c.MinVotes, "min-votes", "passes that must find a finding for it to be kept (default a majority of --passes)")
	fs.StringVar(&c.FailOn, "fail-on", c.FailOn, "exit 1 on a comment at or above `SEVERITY`: critical, high, medium, low or never (default never)")
	fs.BoolVar(&c.AllowPartial, "allow-partial", c.AllowPartial, "exit 0/1, not 3, when some selected files were not reviewed")
	fs.StringVar(&c.SarifFile, "sarif-file", c.SarifFile, "`FILE` of the SARIF report among the CI default reports (default ocr.sarif)")
	fs.StringVar(&c.SarifCategory, "sarif-category", c.SarifCategory, "SARIF automationDetails `ID`")
	fs.BoolVar(&c.Full, "full", c.Full, "review the whole pull request again: no reuse of the last review (a re-run, a push, a rebase)")
}

// Validate checks combinations and fills defaults. It runs once, after the
// environment and the flags are read and before CI detection fills the range.
func (c *Config) Validate() error {
	switch {
	case c.To != "" && c.From == "":
		return errorf("--to (OCR_TO) needs --from (OCR_FROM): give both ends of the range (or use --commit)")
	case c.Commit != "" && c.From != "":
		return errorf("give either a range (--from/--to, OCR_FROM/OCR_TO) or --commit (OCR_COMMIT), not both")
	}
	switch c.Effort {
	case "", "normal", "high":
	default:
		return errorf("--effort (OCR_EFFORT) %q: want normal or high", c.Effort)
	}
	if err := c.checkFormat(); err != nil {
		return err
	}
	if c.From != "" && c.To == "" {
		c.To = "HEAD"
	}
	for _, r := range []struct{ name, ref string }{
		{"--from (OCR_FROM)", c.From}, {"--to (OCR_TO)", c.To}, {"--commit (OCR_COMMIT)", c.Commit}, {"--config-ref (OCR_CONFIG_REF)", c.ConfigRef},
	} {
		if strings.HasPrefix(r.ref, "-") {
			return errorf("%s: ref %q begins with '-': refs like that are refused so git cannot take them for options", r.name, r.ref)
		}
	}
	if err := c.validateCost(); err != nil {
		return err
	}
	if err := c.validateVotes(); err != nil {
		return err
	}
	if err := c.validateChat(); err != nil {
		return err
	}
	if err := c.validateFloor(); err != nil {
		return err
	}
	c.Defaults()
	return nil
}

// validateFloor refuses a --post-min-severity that is not a severity and
// writes it in lower case.
func (c *Config) validateFloor() error {
	if c.PostMinSeverity == "" {
		return nil
	}
	s := strings.ToLower(strings.TrimSpace(c.PostMinSeverity))
	switch s {
	case "critical", "high", "medium", "low":
		c.PostMinSeverity = s
		return nil
	}
	return errorf("--post-min-severity (OCR_POST_MIN_SEVERITY) %q: want critical, high, medium or low", c.PostMinSeverity)
}

// kindNames lists every report kind.
func kindNames() string {
	names := make([]string, len(reportspec.Kinds))
	for i, k := range reportspec.Kinds {
		names[i] = string(k)
	}
	return strings.Join(names, ", ")
}

// checkFormat refuses a --format that is not a file report kind.
func (c *Config) checkFormat() error {
	if c.Format == "" {
		return nil
	}
	for _, k := range FormatKinds() {
		if strings.EqualFold(strings.TrimSpace(c.Format), k) {
			return nil
		}
	}
	return errorf("--format (OCR_FORMAT) %q: want one of %s (the API reports go in --report)", c.Format, strings.Join(FormatKinds(), ", "))
}

// DefaultTimeout is the whole run's deadline when --timeout and
// OCR_TIMEOUT are unset: below the 30 to 60 minute limits CI jobs commonly
// have, so that ocr, not the CI, ends a run that is too slow, and the
// reports are still written.
const DefaultTimeout = 20 * time.Minute

// Defaults fills the zero values.
func (c *Config) Defaults() {
	c.recordCaps()
	setDefault(&c.MaxGitProcs, 16)
	setDefault(&c.MaxFileTokens, 60000)
	setIfZero(&c.MaxDiffMB, DefaultMaxDiffMB)
	setIfZero(&c.MaxFiles, DefaultMaxFiles)
	setIfZero(&c.MaxTokensBudget, DefaultMaxTokens)
	setDefault(&c.Concurrency, 8)
	setDefault(&c.MaxComments, 50)
	setDefault(&c.MaxInline, 10)
	if c.PostMinSeverity == "" {
		c.PostMinSeverity = "medium"
	}
	setDefault(&c.Passes, 1)
	setDefault(&c.MinVotes, c.Passes/2+1)
	if c.Timeout <= 0 {
		c.Timeout = DefaultTimeout
	}
	if c.SarifFile == "" {
		c.SarifFile = reportspec.DefaultSARIFPath
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

// Mode names the review mode the configuration selects.
func (c *Config) Mode() string {
	switch {
	case c.Commit != "":
		return "commit"
	case c.From != "":
		return "range"
	}
	return "workspace"
}

// ListFlag is a repeatable flag that also accepts comma-separated values.
// The first use on the command line replaces the environment's list.
type ListFlag struct {
	vals *[]string
	set  bool
}

func newList(v *[]string) *ListFlag { return &ListFlag{vals: v} }

// Values is the list the flag fills.
func (l *ListFlag) Values() *[]string { return l.vals }

func (l *ListFlag) String() string {
	if l == nil || l.vals == nil {
		return ""
	}
	return strings.Join(*l.vals, ",")
}

// Set adds comma-separated values.
func (l *ListFlag) Set(v string) error {
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

var _ flag.Value = (*ListFlag)(nil)

// MaxPasses bounds --passes: every pass costs a whole review.
const MaxPasses = 9

// validateVotes checks --passes and --min-votes together.
func (c *Config) validateVotes() error {
	if c.Passes > MaxPasses {
		return errorf("--passes (OCR_PASSES) %d: at most %d (every pass costs a whole review)", c.Passes, MaxPasses)
	}
	if passes := max(c.Passes, 1); c.MinVotes > passes {
		return errorf("--min-votes (OCR_MIN_VOTES) %d is more than --passes (OCR_PASSES) %d: no finding could be kept; give at most %d", c.MinVotes, passes, passes)
	}
	return nil
}
