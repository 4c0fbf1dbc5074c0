package plan

import (
	"context"
	"errors"
	"fmt"

	"github.com/ocr-ci/ocr/internal/app/config"
	"github.com/ocr-ci/ocr/internal/domain/rules"
	"github.com/ocr-ci/ocr/internal/infra/git"
)

// Rules reads the layers: --rule, then the repository's .ocr/rule.json
// at ref (the trusted --config-ref; "" reads the work tree), then the
// built-in catalogue. repo may be nil (no repository).
func Rules(ctx context.Context, cfg *config.Config, repo *git.Repo, ref string) (*rules.Set, error) {
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
