package runner

import (
	"context"
	"errors"
	"fmt"

	"github.com/ocr-ci/ocr/internal/app/cli"
	"github.com/ocr-ci/ocr/internal/app/config"
	"github.com/ocr-ci/ocr/internal/domain/rules"
	"github.com/ocr-ci/ocr/internal/infra/git"
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
	repo, err := c.openRepo(ctx, cfg)
	if err != nil {
		set, err := loadRules(ctx, cfg, nil, "")
		return set, func() {}, err
	}
	set, err := loadRules(ctx, cfg, repo, cfg.ConfigRef)
	return set, func() { closeRepo(repo) }, err
}

// loadRules reads the layers: --rule, then the repository's .ocr/rule.json
// at ref (the trusted --config-ref; "" reads the work tree), then the
// built-in catalogue.
func loadRules(ctx context.Context, cfg *config.Config, repo *git.Repo, ref string) (*rules.Set, error) {
	opt := rules.Options{}
	if cfg.Rule != "" {
		data, err := cfg.ReadSetting("--rule", cfg.Rule)
		if err != nil {
			return nil, usagef("%w", err)
		}
		opt.RuleFile, opt.RuleFileName = data, cfg.Rule
	}
	if repo != nil && cfg.ConfigRef != "" && ref == cfg.ConfigRef {
		// Reading at an unknown ref finds no file: the trusted configuration
		// would be dropped without a word.
		if _, err := repo.ResolveCommit(ctx, ref); err != nil {
			return nil, fmt.Errorf("could not read the configuration at --config-ref %q (fetch it, or pass a commit that exists here): %w", ref, err)
		}
	}
	if repo != nil {
		opt.RepoReader = func(p string) ([]byte, error) {
			data, err := repo.ReadFile(ctx, ref, p)
			if errors.Is(err, git.ErrNotFound) {
				return nil, nil
			}
			return data, err
		}
	}
	set, err := rules.Load(opt)
	if err != nil {
		return nil, usagef("%w", err)
	}
	return set, nil
}
