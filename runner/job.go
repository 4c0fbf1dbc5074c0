package runner

import (
	"cmp"
	"context"
	"time"

	"github.com/ocr-ci/ocr/agent"
	"github.com/ocr-ci/ocr/internal/app/ci"
	"github.com/ocr-ci/ocr/internal/app/config"
	"github.com/ocr-ci/ocr/internal/app/plan"
	"github.com/ocr-ci/ocr/internal/infra/llm"
	"github.com/ocr-ci/ocr/reporters"
	"github.com/ocr-ci/ocr/review/reportspec"
	"github.com/ocr-ci/ocr/tools"
)

// job is everything a full review needs, checked before any work starts.
type job struct {
	cfg     *config.Config
	env     ci.Env
	ci      ci.Context
	llm     llm.Config
	specs   []reportspec.Spec
	reg     *tools.Registry
	failOn  reporters.FailOn
	started time.Time
	// posters are the pull/merge request reporters, built once (apiReporter).
	posters map[reportspec.Kind]reporters.Reporter
}

// newJob reads the environment and validates everything that can be
// validated up front: a bad setting costs no tokens.
func (c *Command) newJob(ctx context.Context, cfg *config.Config) (*job, error) {
	j := &job{cfg: cfg, started: time.Now()}
	var err error
	if j.env, err = ci.Load(c.lookup); err != nil {
		return nil, usagef("%w", err)
	}
	if j.ci, err = ci.Detect(j.env); err != nil {
		return nil, usagef("%w", err)
	}
	if j.ci.NeedPR {
		if err := ci.ResolvePR(ctx, &j.ci, j.env.GitHub); err != nil {
			return nil, err
		}
	}
	// cfg was validated once, by parseConfig; the detected context only
	// fills what was left open, with well-formed values.
	applyContext(cfg, j.ci)
	if err := c.loadSettings(ctx, cfg, j.ci); err != nil {
		return nil, err
	}
	if j.failOn, err = reporters.ParseFailOn(cfg.FailOn); err != nil {
		return nil, usagef("%w", err)
	}
	if j.reg, err = loadRegistry(cfg); err != nil {
		return nil, err
	}
	if err := j.loadSpecs(); err != nil {
		return nil, err
	}
	if cfg.Preview {
		return j, nil
	}
	if j.llm, err = c.loadLLM(cfg); err != nil {
		return nil, err
	}
	return j, j.checkPosting()
}

// checkModel fails when the model cannot be asked: no endpoint, or a token
// budget too small for one request. It runs once there is something to
// review, so what needs no model (an empty change) never asks for one.
func (j *job) checkModel(reg *tools.Registry) error {
	if err := j.llm.Validate(); err != nil {
		return usagef("%w", err)
	}
	if b := j.cfg.MaxTokensBudget; b > 0 {
		if floor := agent.RequestFloor(reg, j.cfg.Language); b < floor {
			return usagef("--max-tokens-budget %d is too small for one request: each carries about %d tokens of instructions and tool descriptions before any code; give at least %d plus the diff, or 0 for no budget", b, floor, floor)
		}
	}
	return nil
}

// checkPosting fails before any model call when a report cannot be
// delivered here (a posting report outside its pull or merge request), or
// when a merge request review cannot be posted for want of a token:
// GitLab's job token cannot write notes.
func (j *job) checkPosting() error {
	for _, s := range j.specs {
		if err := j.ci.Deliverable(s.Kind); err != nil {
			return usagef("%w", err)
		}
		if s.Kind == reportspec.KindGitLabDiscussion && j.ci.PR > 0 && j.env.GitLab.Token == "" {
			only := ""
			if j.env.GitLab.JobToken != "" {
				only = " (only CI_JOB_TOKEN is set)"
			}
			return usagef("gitlab-discussion needs OCR_GITLAB_TOKEN (or GITLAB_TOKEN)%s: a project or group access token "+
				"with the api scope; CI_JOB_TOKEN cannot create merge request notes (or leave gitlab-discussion out of --report)", only)
		}
	}
	return nil
}

// loadSpecs parses the reports and checks their files can be written.
func (j *job) loadSpecs() error {
	specs, err := reportspec.ParseAll(j.cfg.ReportList()...)
	if err != nil {
		return usagef("%w", err)
	}
	for i, s := range specs {
		if s.Kind == reportspec.KindGitHubSummary && s.Path == "" {
			specs[i].Path = j.env.GitHub.StepSummary
		}
	}
	if err := reporters.CheckWritable(specs); err != nil {
		return usagef("%w", err)
	}
	j.specs = specs
	return nil
}

// secrets are the values that must never appear in a log: the tokens and
// the values of OCR_LLM_EXTRA_HEADERS, which often carry a key.
func (j *job) secrets() []string {
	out := []string{j.llm.APIToken(), j.env.GitHub.Token, j.env.GitLab.Token}
	for _, v := range j.llm.ExtraHeaders {
		out = append(out, v)
	}
	return out
}

// loadSettings reads the settings files (--rule, --background-file,
// --tools) once, in CI at the trusted config ref for a path inside the
// repository: the work tree there is the pull request's checkout.
func (c *Command) loadSettings(ctx context.Context, cfg *config.Config, cx ci.Context) error {
	files := cfg.SettingFiles()
	if len(files) == 0 || cx.Platform == ci.PlatformLocal || cfg.ConfigRef == "" {
		return nil
	}
	repo, err := plan.OpenRepo(ctx, cfg, c.logf)
	if err != nil {
		return err
	}
	defer plan.CloseRepo(repo)
	if _, err := repo.ResolveCommit(ctx, cfg.ConfigRef); err != nil {
		// A shallow clone may lack the base yet: fetch it as the review would.
		notes, _ := repo.EnsureHistory(ctx, cfg.ConfigRef, cmp.Or(cfg.To, cfg.Commit, "HEAD"))
		for _, n := range notes {
			c.logf("%s", n)
		}
	}
	src := config.FileSource{Ref: cfg.ConfigRef, Root: repo.Dir(), ReadAt: func(ref, rel string) ([]byte, error) {
		return repo.ReadFile(ctx, ref, rel)
	}}
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
