package runner

import (
	"context"

	"github.com/ocr-ci/ocr/internal/app/cli"
	"github.com/ocr-ci/ocr/internal/app/config"
	"github.com/ocr-ci/ocr/internal/app/plan"
	"github.com/ocr-ci/ocr/internal/domain/rules"
)

// rules runs `ocr rules list` and `ocr rules check PATH...`.
func (c *Command) rules(ctx context.Context, args []string) error {
	if len(args) == 0 {
		return usagef("ocr rules needs a subcommand: list, or check PATH.... Run 'ocr rules --help'.")
	}
	if cli.IsHelp(args[0]) {
		return cli.PrintGroupHelp(c.Stdout, "rules")
	}
	switch args[0] {
	case "list":
		if _, err := c.parseConfig("rules list", args[1:]); err != nil {
			return err
		}
		return rules.WriteList(c.Stdout)
	case "check":
		l, err := c.parse("rules check", args[1:])
		if err != nil {
			return err
		}
		cfg, paths := l.Config, l.Args
		if len(paths) == 0 {
			return usagef("usage: ocr rules check PATH... [--rule FILE] [--repo DIR] [--config-ref REF]")
		}
		set, closeFn, err := c.ruleSetFor(ctx, cfg)
		if err != nil {
			return err
		}
		defer closeFn()
		return rules.WriteCheck(c.Stdout, set, paths...)
	}
	return usagef("unknown rules subcommand %q: use list or check. Run 'ocr rules --help'.", args[0])
}

// ruleSetFor loads the rules for `rules check`, from the repository when
// there is one.
func (c *Command) ruleSetFor(ctx context.Context, cfg *config.Config) (*rules.Set, func(), error) {
	repo, err := plan.OpenRepo(ctx, cfg, c.logf)
	if err != nil {
		set, err := plan.Rules(ctx, cfg, nil, "")
		return set, func() {}, err
	}
	set, err := plan.Rules(ctx, cfg, repo, cfg.ConfigRef)
	if err != nil {
		plan.CloseRepo(repo) // the caller closes only what it is given
		return nil, nil, err
	}
	return set, func() { plan.CloseRepo(repo) }, nil
}
