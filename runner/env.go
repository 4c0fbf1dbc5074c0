package runner

import (
	"context"
	"fmt"
	"strings"

	"github.com/ocr-ci/ocr/internal/app/ci"
	"github.com/ocr-ci/ocr/internal/app/config"
	"github.com/ocr-ci/ocr/internal/app/envinfo"
	"github.com/ocr-ci/ocr/internal/app/plan"
	"github.com/ocr-ci/ocr/internal/app/setup"
	"github.com/ocr-ci/ocr/internal/infra/git"
)

// env runs `ocr env`: what was detected and what would run, secrets masked.
func (c *Command) env(ctx context.Context, args []string) error {
	cfg, err := c.parseConfig("env", args)
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
	setup.ApplyContext(cfg, cx)
	rows := envinfo.Context(cfg, cx)
	llmErr := error(nil)
	if lc, err := setup.LLM(cfg, c.lookup); err != nil {
		rows, llmErr = append(rows, envinfo.NoLLM()...), err
	} else {
		rows, llmErr = append(rows, envinfo.LLM(lc)...), lc.Validate()
	}
	rows = append(rows, envinfo.Row{Name: "github token", Value: envinfo.Mask(e.GitHub.Token)},
		envinfo.Row{Name: "gitlab token", Value: envinfo.Mask(e.GitLab.Token)})
	if llmErr != nil {
		rows = append(rows, envinfo.Row{Name: "llm problem", Value: llmErr.Error()})
	}
	rows = append(rows, envinfo.Row{Name: "caps", Value: envinfo.Caps(cfg, cx)}, envinfo.Posting(cfg))
	return envinfo.Write(c.Stdout, append(rows, c.describeRepo(ctx, cfg)...))
}

// describeRepo says which git runs and warns when the directory is not a
// repository that 'ocr review' can read.
func (c *Command) describeRepo(ctx context.Context, cfg *config.Config) []envinfo.Row {
	v, err := git.Version(ctx, cfg.Repo)
	if err != nil {
		return []envinfo.Row{{Name: "git", Value: fmt.Sprintf("not found: ocr needs git %s or later on PATH", git.MinVersion)}}
	}
	rows := []envinfo.Row{{Name: "git", Value: fmt.Sprintf("%s (ocr needs %s or later)", strings.TrimPrefix(v, "git version "), git.MinVersion)}}
	repo, err := plan.OpenRepo(ctx, cfg, c.logf)
	if err != nil {
		return append(rows, envinfo.Row{Name: "warning", Value: safeLines(err.Error())})
	}
	defer plan.CloseRepo(repo)
	return append(rows, envinfo.Row{Name: "repository", Value: repo.Dir()})
}
