package runner

import (
	"context"
	"net/http"
	"time"

	"github.com/ocr-ci/ocr/agent"
	"github.com/ocr-ci/ocr/internal/app/chatrun"
	"github.com/ocr-ci/ocr/internal/app/ci"
	"github.com/ocr-ci/ocr/internal/app/config"
	"github.com/ocr-ci/ocr/internal/app/setup"
	"github.com/ocr-ci/ocr/internal/infra/llm"
	"github.com/ocr-ci/ocr/internal/infra/readonce"
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
	// forge is the HTTP client of all that reads the pull/merge request
	// (poster, pause and ignore): on one readonce transport, each page is
	// read once per run until the run writes.
	forge *http.Client
}

// newJob reads the environment and validates everything that can be
// validated up front (setup.Load): a bad setting costs no tokens.
func (c *Command) newJob(ctx context.Context, cfg *config.Config) (*job, error) {
	forge := &http.Client{Transport: readonce.New(nil)}
	r, err := setup.Load(ctx, cfg, setup.Options{Lookup: c.lookup, Logf: c.logf,
		ResolveMR: func(ctx context.Context, env ci.Env, cx *ci.Context) error {
			return chatrun.ResolveTriggerMR(ctx, c.chatOptions(), env, cx, forge)
		}})
	if err != nil {
		return nil, err
	}
	j := jobOf(cfg, r)
	j.forge = forge
	return j, nil
}

// jobOf is the job of a checked setup, started now.
func jobOf(cfg *config.Config, r *setup.Run) *job {
	return &job{cfg: cfg, env: r.Env, ci: r.CI, llm: r.LLM, specs: r.Specs, reg: r.Reg, failOn: r.FailOn, started: time.Now()}
}

// checkModel fails when the model cannot be asked: no endpoint, or a token
// budget too small for one request. It runs once there is something to
// review, so what needs no model (an empty change) never asks for one.
func (j *job) checkModel(reg *tools.Registry) error {
	if err := j.llm.Validate(); err != nil && !j.cfg.Preview { // --preview checks the budget alone
		return usagef("%w", err)
	}
	if b := j.cfg.MaxTokensBudget; b > 0 {
		if floor := agent.RequestFloor(reg, j.cfg.Language); b < floor {
			return usagef("--max-tokens-budget %d is too small for one request: each carries about %d tokens of instructions and tool descriptions before any code; give at least %d plus the diff, or 0 for the default budget (%d)", b, floor, floor, config.DefaultMaxTokens)
		}
	}
	return nil
}

// secrets are the values that must never appear in a log (setup.Run.Secrets).
func (j *job) secrets() []string {
	return (&setup.Run{Env: j.env, LLM: j.llm}).Secrets()
}
