// Package setup reads and checks everything a run needs before any work
// starts, so that a bad setting costs no tokens: the CI's variables and
// the context they describe, the settings files at the trusted ref, the
// reports and --fail-on, the tool registry and the LLM endpoint.
package setup

import (
	"cmp"
	"context"
	"fmt"

	"github.com/ocr-ci/ocr/internal/app/ci"
	"github.com/ocr-ci/ocr/internal/app/cli"
	"github.com/ocr-ci/ocr/internal/app/config"
	"github.com/ocr-ci/ocr/internal/app/plan"
	"github.com/ocr-ci/ocr/internal/infra/llm"
	"github.com/ocr-ci/ocr/reporters"
	"github.com/ocr-ci/ocr/review/reportspec"
	"github.com/ocr-ci/ocr/tools"
)

// Run is what a run needs besides its configuration, checked.
type Run struct {
	Env    ci.Env
	CI     ci.Context
	LLM    llm.Config // the zero value for a preview: no model is called
	Specs  []reportspec.Spec
	Reg    *tools.Registry
	FailOn reporters.FailOn
}

// Options are where a run's setup reads from and reports to.
type Options struct {
	Lookup config.Lookup // the environment
	Logf   plan.Logf     // progress (a shallow clone's fetch)
	// ResolveMR reads the merge request a GitLab trigger's note names
	// (ci.Context.NeedMR) from the API into cx; the runner's, which owns
	// the API client.
	ResolveMR func(ctx context.Context, env ci.Env, cx *ci.Context) error
}

// Load reads the CI's variables, detects the context (resolving an
// issue_comment's pull request), fills what cfg left open from it, reads
// the settings files, and checks the reports, --fail-on, --tools and the
// LLM endpoint. cfg was validated once, by cli.Parse; the detected context
// only fills what was left open, with well-formed values.
func Load(ctx context.Context, cfg *config.Config, o Options) (*Run, error) {
	r := &Run{}
	var err error
	if r.Env, err = ci.Load(o.Lookup); err != nil {
		return nil, usagef("%w", err)
	}
	if r.CI, err = ci.Detect(r.Env); err != nil {
		return nil, usagef("%w", err)
	}
	if r.CI.NeedPR {
		if err := ci.ResolvePR(ctx, &r.CI, r.Env.GitHub); err != nil {
			return nil, err
		}
	}
	if r.CI.NeedMR && o.ResolveMR != nil {
		if err := o.ResolveMR(ctx, r.Env, &r.CI); err != nil {
			return nil, err
		}
	}
	ApplyContext(cfg, r.CI)
	if err := loadSettings(ctx, cfg, r.CI, o.Logf); err != nil {
		return nil, err
	}
	if r.FailOn, err = reporters.ParseFailOn(cfg.FailOn); err != nil {
		return nil, usagef("%w", err)
	}
	if r.Reg, err = Registry(cfg); err != nil {
		return nil, err
	}
	if err := r.loadSpecs(cfg); err != nil {
		return nil, err
	}
	if cfg.Preview {
		return r, nil
	}
	if r.LLM, err = LLM(cfg, o.Lookup); err != nil {
		return nil, err
	}
	return r, r.checkPosting()
}

// ForMerge is what writing the reports of `ocr merge` needs: the CI's
// variables (the step summary's file), --fail-on and the report files.
func ForMerge(cfg *config.Config, lookup config.Lookup) (*Run, error) {
	r := &Run{}
	var err error
	if r.Env, err = ci.Load(lookup); err != nil {
		return nil, usagef("%w", err)
	}
	if r.CI, err = ci.Detect(r.Env); err != nil {
		return nil, usagef("%w", err)
	}
	if r.FailOn, err = reporters.ParseFailOn(cfg.FailOn); err != nil {
		return nil, usagef("%w", err)
	}
	return r, r.loadSpecs(cfg)
}

// ApplyContext fills what the flags and OCR_* variables left open from the
// detected CI context: explicit settings always win.
func ApplyContext(cfg *config.Config, cx ci.Context) {
	if cfg.From == "" && cfg.Commit == "" {
		cfg.From, cfg.To, cfg.Commit, cfg.FromIsGuess = cx.From, cx.To, cx.Commit, cx.FromIsGuess
	}
	if cfg.ConfigRef == "" {
		cfg.ConfigRef = cx.ConfigRef
	}
	if cx.UntrustedHead != "" {
		cfg.ForkCaps()
	}
	if len(cfg.Reports) == 0 && cfg.Format == "" {
		for _, s := range cx.Reports {
			if s == ci.DefaultSARIF {
				s.Path = cfg.SarifFile
			}
			cfg.Reports = append(cfg.Reports, s.String())
		}
	}
}

// LLM reads the endpoint configuration through internal/app/config
// (OCR_LLM_*, OPENAI_* fallbacks, empty values unset); --model wins over
// OCR_LLM_MODEL and OPENAI_MODEL.
func LLM(cfg *config.Config, lookup config.Lookup) (llm.Config, error) {
	lc, err := config.LoadLLM(lookup)
	if err != nil {
		return lc, err
	}
	if cfg.Model != "" {
		lc.Model, lc.ModelFrom = cfg.Model, "--model/OCR_MODEL"
	}
	return lc, nil
}

// Registry returns the registry in effect: --tools, or the built-in one.
func Registry(cfg *config.Config) (*tools.Registry, error) {
	if cfg.Tools == "" {
		return tools.Default(), nil
	}
	data, err := cfg.ReadSetting("--tools", cfg.Tools)
	if err != nil {
		return nil, usagef("%w", err)
	}
	reg, err := tools.Load(data)
	if err != nil {
		return nil, usagef("invalid --tools file %s: %w", cfg.Tools, err)
	}
	return reg, nil
}

// Secrets are the values that must never appear in a log: the tokens and
// the values of OCR_LLM_EXTRA_HEADERS, which often carry a key.
func (r *Run) Secrets() []string {
	out := []string{r.LLM.APIToken(), r.Env.GitHub.Token, r.Env.GitLab.Token}
	for _, v := range r.LLM.ExtraHeaders {
		out = append(out, v)
	}
	return out
}

// CheckReports parses cfg's reports, checks their files can be written
// and that each can be delivered here (r.Env, r.CI): the report problems
// `ocr env` lists, as Load would stop on them.
func (r *Run) CheckReports(cfg *config.Config) error {
	if err := r.loadSpecs(cfg); err != nil {
		return err
	}
	return r.checkPosting()
}

// checkPosting fails before any model call when a report cannot be
// delivered here (a posting report outside its pull or merge request), or
// when a merge request review cannot be posted for want of a token:
// GitLab's job token cannot write notes.
func (r *Run) checkPosting() error {
	for _, s := range r.Specs {
		if err := r.CI.Deliverable(s.Kind); err != nil {
			return usagef("%w", err)
		}
		if s.Kind == reportspec.KindGitLabDiscussion && r.CI.PR > 0 && r.Env.GitLab.Token == "" {
			only := ""
			if r.Env.GitLab.JobToken != "" {
				only = " (only CI_JOB_TOKEN is set)"
			}
			return usagef("gitlab-discussion needs OCR_GITLAB_TOKEN (or GITLAB_TOKEN)%s: a project or group access token "+
				"with the api scope; CI_JOB_TOKEN cannot create merge request notes (or leave gitlab-discussion out of --report)", only)
		}
	}
	return nil
}

// loadSpecs parses the reports and checks their files can be written.
func (r *Run) loadSpecs(cfg *config.Config) error {
	specs, err := reportspec.ParseAll(cfg.ReportList()...)
	if err != nil {
		return usagef("%w", err)
	}
	for i, s := range specs {
		if s.Kind == reportspec.KindGitHubSummary && s.Path == "" {
			specs[i].Path = r.Env.GitHub.StepSummary
		}
	}
	if err := (reporters.Files{Dir: cfg.Dir}).CheckWritable(specs); err != nil {
		return usagef("%w", err)
	}
	r.Specs = specs
	return nil
}

// loadSettings reads the settings files (--rule, --background-file,
// --tools) once, in CI at the trusted config ref for a path inside the
// repository: the work tree there is the pull request's checkout.
func loadSettings(ctx context.Context, cfg *config.Config, cx ci.Context, logf plan.Logf) error {
	files := cfg.SettingFiles()
	if len(files) == 0 || cx.Platform == ci.PlatformLocal || cfg.ConfigRef == "" {
		return nil
	}
	repo, err := plan.OpenRepo(ctx, cfg, logf)
	if err != nil {
		return err
	}
	defer plan.CloseRepo(repo)
	if _, err := repo.ResolveCommit(ctx, cfg.ConfigRef); err != nil {
		// A shallow clone may lack the base yet: fetch it as the review would.
		notes, _ := repo.EnsureHistory(ctx, cfg.ConfigRef, cmp.Or(cfg.To, cfg.Commit, "HEAD"))
		for _, n := range notes {
			logf("%s", n)
		}
	}
	src := config.FileSource{Ref: cfg.ConfigRef, Root: repo.Dir(), ReadAt: func(ref, rel string) ([]byte, error) {
		return repo.ReadFile(ctx, ref, rel)
	}, Getwd: cfg.Getwd}
	cfg.Loaded = map[string][]byte{}
	for name, p := range files {
		data, err := src.Read(name, p)
		if err != nil {
			return usagef("%w", err)
		}
		cfg.Loaded[name] = data
	}
	return nil
}

// usagef returns a usage error (exit 2).
func usagef(format string, args ...any) error {
	return &cli.UsageError{Err: fmt.Errorf(format, args...)}
}
