package runner

import (
	"context"

	"github.com/ocr-ci/ocr/internal/app/cli"
	"github.com/ocr-ci/ocr/internal/app/config"
	"github.com/ocr-ci/ocr/internal/app/scaffold"
)

// initCmd runs `ocr init`: the CI file for the forge of the origin
// remote, written where none exists (never over a file), then what is
// still to set and the command that checks it.
func (c *Command) initCmd(ctx context.Context, args []string) error {
	dir, forge, err := cli.ParseInit(c.Stdout, args)
	if err != nil {
		return err
	}
	repo, err := c.openRepo(ctx, &config.Config{Repo: dir})
	if err != nil {
		return err
	}
	defer closeRepo(repo)
	host := ""
	if forge == "" {
		url, err := repo.RemoteURL(ctx, "origin")
		if forge, host, err = scaffold.Detect(url, err); err != nil {
			return usagef("%w", err)
		}
	}
	return scaffold.Init(c.Stdout, repo.Dir(), forge, host, Version)
}
