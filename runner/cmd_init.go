package runner

import (
	"context"
	"flag"
	"strings"

	"github.com/ocr-ci/ocr/internal/app/cli"
	"github.com/ocr-ci/ocr/internal/app/config"
	"github.com/ocr-ci/ocr/internal/app/scaffold"
)

// initCmd runs `ocr init`: the CI file for the forge of the origin
// remote, written where none exists (never over a file), then what is
// still to set and the command that checks it.
func (c *Command) initCmd(ctx context.Context, args []string) error {
	cfg, forge, err := c.parseInit(args)
	if err != nil {
		return err
	}
	repo, err := c.openRepo(ctx, cfg)
	if err != nil {
		return err
	}
	defer closeRepo(repo)
	host := ""
	if forge == "" {
		if forge, host, err = c.detectForge(ctx, repo.RemoteURL); err != nil {
			return err
		}
	}
	files, err := scaffold.Files(forge, Version)
	if err != nil {
		return usagef("--forge: %w", err)
	}
	for _, f := range files {
		if err := scaffold.Write(c.Stdout, repo.Dir(), f); err != nil {
			return err
		}
	}
	return scaffold.WriteSteps(c.Stdout, forge, host)
}

// parseInit reads `ocr init`'s flags: --repo and --forge.
func (c *Command) parseInit(args []string) (*config.Config, string, error) {
	sub := cli.Find("init")
	var cfg config.Config
	forge := ""
	fs := cli.FlagSet(sub, &cfg)
	fs.StringVar(&forge, "forge", "", "`FORGE` github or gitlab (default: the host of the origin remote)")
	if cli.WantsHelp(args) {
		if err := cli.PrintHelp(c.Stdout, sub, fs); err != nil {
			return nil, "", err
		}
		return nil, "", flag.ErrHelp
	}
	if err := fs.Parse(args); err != nil {
		return nil, "", cli.ParseError(sub, fs, err)
	}
	if fs.NArg() > 0 {
		return nil, "", usagef("ocr init takes no argument %q: pass flags only (--repo DIR, --forge github|gitlab)", fs.Arg(0))
	}
	if cfg.Repo == "" {
		cfg.Repo = "."
	}
	return &cfg, strings.ToLower(forge), nil
}

// detectForge names the forge of the origin remote.
func (c *Command) detectForge(ctx context.Context, remoteURL func(context.Context, string) (string, error)) (forge, host string, err error) {
	u, err := remoteURL(ctx, "origin")
	if err != nil {
		return "", "", usagef("this repository has no origin remote to tell the forge by: pass --forge github or --forge gitlab")
	}
	forge, host, ok := scaffold.ForgeOf(u)
	if !ok {
		return "", "", usagef("cannot tell the forge of the origin remote (its host %q names neither GitHub nor GitLab): pass --forge github or --forge gitlab", host)
	}
	return forge, host, nil
}
