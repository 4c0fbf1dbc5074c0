package runner

import (
	"context"

	"github.com/ocr-ci/ocr/internal/app/ci"
	"github.com/ocr-ci/ocr/internal/app/cli"
	"github.com/ocr-ci/ocr/internal/app/config"
	"github.com/ocr-ci/ocr/internal/app/envinfo"
	"github.com/ocr-ci/ocr/internal/app/plan"
	"github.com/ocr-ci/ocr/internal/app/setup"
)

// env runs `ocr env`: what was detected and what would run, secrets
// masked, then every problem `ocr review` would stop on, one line each
// (exit 2 when there is one). --format json writes the same as one object.
func (c *Command) env(ctx context.Context, args []string) error {
	cfg, err := c.parseConfig("env", args)
	if err != nil {
		return err
	}
	format, err := cli.EnvFormat(cfg, args, c.lookup)
	if err != nil {
		return err
	}
	e, err := ci.Load(c.lookup)
	if err != nil {
		return usagef("%w", err)
	}
	cx, err := ci.Detect(e)
	if err != nil {
		return usagef("%w", err)
	}
	var problems []error
	if cx.NeedPR { // as ocr review would: the pull request's SHAs from the API
		problems = append(problems, ci.ResolvePR(ctx, &cx, e.GitHub))
	}
	setup.ApplyContext(cfg, cx)
	rows := append(envinfo.Context(cfg, cx), envinfo.Row{Name: "runs", Value: envinfo.Runs(e)})
	if lc, err := setup.LLM(cfg, c.lookup); err != nil {
		rows, problems = append(rows, envinfo.NoLLM()...), append(problems, err)
	} else {
		rows, problems = append(rows, envinfo.LLM(lc)...), append(problems, lc.Validate())
	}
	problems = append(problems, (&setup.Run{Env: e, CI: cx}).CheckReports(cfg))
	rows = append(rows, envinfo.Row{Name: "github token", Value: envinfo.Mask(e.GitHub.Token)},
		envinfo.Row{Name: "gitlab token", Value: envinfo.Mask(e.GitLab.Token)},
		envinfo.Row{Name: "caps", Value: envinfo.Caps(cfg, cx)}, envinfo.Posting(cfg), envinfo.Passes(cfg))
	repoRows, repoErr := c.describeRepo(ctx, cfg)
	rows = append(rows, repoRows...)
	problemList := envinfo.Problems(append(problems, repoErr)...)
	if err := envinfo.Print(c.Stdout, format == "json", rows, problemList, safeLines); err != nil || len(problemList) == 0 {
		return err
	}
	return usagef("%d problem(s) would stop ocr review (listed by ocr env)", len(problemList))
}

// describeRepo says which git runs and which repository is read; the
// error is why 'ocr review' could not read it.
func (c *Command) describeRepo(ctx context.Context, cfg *config.Config) ([]envinfo.Row, error) {
	rows, err := envinfo.Git(ctx, cfg.Path(cfg.Repo))
	if err != nil {
		return rows, err
	}
	repo, err := plan.OpenRepo(ctx, cfg, c.logf)
	if err != nil {
		return append(rows, envinfo.Row{Name: "repository", Value: ""}), err
	}
	defer plan.CloseRepo(repo)
	return append(rows, envinfo.Row{Name: "repository", Value: repo.Dir()}), nil
}
