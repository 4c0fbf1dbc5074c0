package runner

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/ocr-ci/ocr/agent"
	"github.com/ocr-ci/ocr/anchor"
	"github.com/ocr-ci/ocr/internal/app/ci"
	"github.com/ocr-ci/ocr/internal/app/config"
	"github.com/ocr-ci/ocr/internal/app/envinfo"
	"github.com/ocr-ci/ocr/internal/app/incremental"
	"github.com/ocr-ci/ocr/internal/app/plan"
	"github.com/ocr-ci/ocr/internal/app/preview"
	"github.com/ocr-ci/ocr/internal/domain/change"
	"github.com/ocr-ci/ocr/internal/domain/rules"
	"github.com/ocr-ci/ocr/internal/domain/selection"
	"github.com/ocr-ci/ocr/internal/infra/llm"
	"github.com/ocr-ci/ocr/reporters"
	"github.com/ocr-ci/ocr/reporters/github"
	"github.com/ocr-ci/ocr/review"
	"github.com/ocr-ci/ocr/review/reportspec"
	"github.com/ocr-ci/ocr/tools"
)

// fullReview runs the pipeline: change → selection → agent → dedupe and
// caps → reporters → exit code.
func (c *Command) fullReview(ctx context.Context, j *job) int {
	if err := c.maskSecrets(j); err != nil {
		return c.fail(err)
	}
	if j.ci.Platform != ci.PlatformLocal {
		c.logf("%s %s: %s; reports: %s", j.ci.Platform, envinfo.OrDash(j.ci.Event), envinfo.OrDash(j.ci.Why), strings.Join(j.cfg.ReportList(), ", "))
	}
	ctx, cancel := j.deadline(ctx)
	defer cancel()
	pr, err := plan.ForReview(ctx, j.cfg, c.logf)
	if err != nil {
		return c.fail(err)
	}
	defer pr.Close()
	sc := c.scope(ctx, j, pr)
	rv, err := c.reviewScope(ctx, j, pr, sc)
	if err != nil {
		return c.fail(err)
	}
	c.markDeadline(ctx, rv)
	ch, p, set := pr.Change, pr.Preview, pr.Rules
	if sc.Kind != incremental.Full {
		carried := sc.Merge(ctx, ch, p, rv)
		rv.Rules = set.Used(rv.Files)
		rv.Comments, rv.Dropped = capComments(j.cfg, sc.Combine(carried, rv.Comments))
	}
	// The reports are written even when the deadline has passed.
	h := c.suppress(context.WithoutCancel(ctx), j, rv, set)
	return c.publish(context.WithoutCancel(ctx), j, ch, rv, h)
}

// runAgent reviews the selected files of pr and assembles the finished
// review.
func (c *Command) runAgent(ctx context.Context, j *job, pr *plan.Review) (*review.Review, error) {
	ch, p := pr.Change, pr.Preview
	rv := &review.Review{Tool: "ocr", Version: Version, Mode: ch.Mode, Base: ch.Base, Head: ch.Head,
		Started: j.started, Comments: []review.Comment{}}
	in, err := c.agentInput(j, pr)
	if err != nil {
		return nil, err
	}
	if len(in.Files) == 0 {
		if len(p.Files) > 0 { // an empty change was already said
			c.logf("nothing to review: %d changed file(s), none selected (see --preview)", len(p.Files))
		}
		rv.Status, rv.Files, rv.Finished = review.StatusComplete, p.Files, time.Now()
		if selection.ShortOfCaps(p.Files) {
			rv.Status = review.StatusFailed // selected files, none reviewed
		}
		return rv, nil
	}
	return rv, c.callAgent(ctx, j, rv, agentWork{input: in, preview: p, rules: pr.Rules, reg: j.reg})
}

// agentWork is one call of the agent: its input, the selection and rules
// the review is finished with, the registry, and whether groups never mix
// directories (a scan).
type agentWork struct {
	input   agent.Input
	preview preview.Preview
	rules   *rules.Set
	reg     *tools.Registry
	byDir   bool
}

// callAgent reviews w's input with the model and fills rv.
func (c *Command) callAgent(ctx context.Context, j *job, rv *review.Review, w agentWork) error {
	if err := j.checkModel(w.reg); err != nil {
		return err
	}
	client, err := llm.New(j.llm, llm.Options{Logf: c.logf})
	if err != nil {
		return usagef("%w", err)
	}
	if p, why := client.Protocol(); p == llm.ToolsText {
		c.logf("tool protocol: text (%s): tools described in the prompt, one JSON action per answer", why)
	}
	acfg := c.agentConfig(j, client)
	acfg.ByDirectory = w.byDir
	c.finish(j, rv, w.preview, agent.New(acfg, client, w.reg).Review(ctx, w.input), w.rules)
	return nil
}

// maskSecrets registers the run's secrets with the Actions runner before
// anything else is printed: it reads workflow commands from stderr too
// (stdout may be a JSON or SARIF report that a command line would corrupt).
func (c *Command) maskSecrets(j *job) error {
	if j.ci.Platform != ci.PlatformGitHub {
		return nil
	}
	return github.Mask(c.Stderr, j.secrets()...)
}

// agentInput gathers the agent's material from the change.
func (c *Command) agentInput(j *job, pr *plan.Review) (agent.Input, error) {
	repo, ch, p, set := pr.Repo, pr.Change, pr.Preview, pr.Rules
	bg, err := background(j.cfg)
	if err != nil {
		return agent.Input{}, err
	}
	moved := selection.SecretMoves(ch.Files)
	in := agent.Input{
		Changes: anchor.NewChangeSet(ch.Files), Diffs: selection.PublicDiffs(ch.Diffs, moved...),
		Source: selection.GuardSecrets(sourceFor(repo, ch), moved...), Background: bg, Language: j.cfg.Language,
		Rules: func(path string) (string, string) {
			m := set.Match(path)
			return m.RuleID, m.Text
		},
	}
	for _, f := range p.Files {
		if f.Reviewed {
			in.Files = append(in.Files, agent.File{Path: f.Path, Diff: ch.Diffs[f.Path]})
		}
	}
	return in, nil
}

// background reads --background and --background-file.
func background(cfg *config.Config) (string, error) {
	if cfg.BackgroundFile == "" {
		return cfg.Background, nil
	}
	data, err := cfg.ReadSetting("--background-file", cfg.BackgroundFile)
	if err != nil {
		return "", usagef("%w", err)
	}
	return cfg.Background + "\n" + string(data), nil
}

// agentConfig maps the configuration onto the agent's.
func (c *Command) agentConfig(j *job, client *llm.Client) agent.Config {
	cfg := agent.Config{
		Model: client.Model(), Concurrency: j.cfg.Concurrency,
		MaxTokensBudget: j.cfg.MaxTokensBudget, Progress: c.Stderr, Heartbeat: c.heartbeat,
		MaxCost: j.cfg.MaxCost, Prices: pricesOf(j.cfg), Quiet: j.cfg.Quiet, ContextTokens: j.llm.Context,
		Passes: j.cfg.Passes, MinVotes: j.cfg.MinVotes, Seed: llm.DefaultSeed,
	}
	if j.llm.Seed != nil {
		cfg.Seed = *j.llm.Seed
	}
	if j.cfg.Effort == "high" {
		cfg.Rounds = 2
	}
	if !j.cfg.NoFilter {
		model := client.Model()
		cfg.Filter = func(ctx context.Context, diff string, cs []review.Comment) ([]review.Comment, review.Usage, error) {
			return agent.Filter(ctx, client, model, diff, cs)
		}
	}
	return cfg
}

// finish merges the agent's output into the review: coverage of every file,
// dedupe, caps, rules, status.
func (c *Command) finish(j *job, rv *review.Review, p preview.Preview, out agent.Output, set *rules.Set) {
	byPath := map[string]review.FileCoverage{}
	for _, f := range out.Files {
		byPath[f.Path] = f
	}
	for _, f := range p.Files {
		if got, ok := byPath[f.Path]; ok && f.Reviewed {
			f.Reviewed, f.Reason, f.Detail = got.Reviewed, got.Reason, got.Detail
		}
		rv.Files = append(rv.Files, f)
	}
	deduped := review.Dedupe(out.Comments)
	rv.Filtered = out.FilterDropped + len(out.Comments) - len(deduped)
	rv.Outvoted, rv.Passes = out.Outvoted, passCosts(pricesOf(j.cfg), out.Passes)
	rv.Comments, rv.Dropped = capComments(j.cfg, deduped)
	rv.Rules = set.Used(rv.Files)
	rv.Usage, rv.Status, rv.Errors, rv.Finished = out.Usage, out.Status, out.Errors, time.Now()
	if rv.Status == review.StatusComplete && selection.ShortOfCaps(rv.Files) {
		rv.Status = review.StatusPartial
	}
	rv.Cost = review.NewCost(pricesOf(j.cfg), rv.Usage)
}

// capComments keeps the most severe comments within --max-comments per run
// and a fifth of it (at least 5) per file.
func capComments(cfg *config.Config, cs []review.Comment) ([]review.Comment, int) {
	kept, dropped := review.Cap(cs, max(cfg.MaxComments/5, 5), cfg.MaxComments)
	if kept == nil {
		kept = []review.Comment{}
	}
	return kept, dropped
}

// publish runs the reporters and decides the exit code. A reporter that
// fails does not stop the others; the run then exits 3.
func (c *Command) publish(ctx context.Context, j *job, ch *change.Change, rv *review.Review, h heard) int {
	reps, err := c.buildReporters(j, ch, h)
	if err != nil {
		return c.fail(err)
	}
	repErr := reps.Report(ctx, rv)
	wrote, err := reps.Close()
	if err != nil {
		repErr = errors.Join(repErr, err)
	}
	for _, p := range wrote {
		c.logf("wrote %s", p)
	}
	code := reporters.ExitCode(rv, j.failOn, j.cfg.AllowPartial)
	c.logf("review %s: %d comment(s), %d request(s), %s prompt + %s completion tokens%s%s",
		rv.Status, len(rv.Comments), rv.Usage.Requests, review.Thousands(rv.Usage.PromptTokens), review.Thousands(rv.Usage.CompletionTokens), rv.Usage.Breakdown(), costLine(rv))
	c.logPasses(rv)
	shown := reportspec.OnStdout(j.specs, reportspec.KindText)
	for _, e := range rv.Errors {
		if !shown || !review.IsCoverageError(e) { // the text report lists it
			c.logf("not reviewed: %s", e)
		}
	}
	if repErr != nil {
		// Best effort: stderr is where a failed write would be reported.
		_, _ = fmt.Fprintf(c.Stderr, "ocr: publishing failed: %s\n", safeLines(repErr.Error()))
		return reporters.ExitIncomplete
	}
	if code == reporters.ExitFindings {
		c.logf("%s", j.failOn.Why(rv.Comments))
	}
	return code
}
