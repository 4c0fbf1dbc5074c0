package runner

import (
	"context"
	"fmt"
	"os"

	"github.com/ocr-ci/ocr/internal/git"
)

// review runs `ocr review`.
func (c *Command) review(ctx context.Context, args []string) int {
	cfg, _, err := c.parseConfig("review", args)
	if err != nil {
		return c.fail(err)
	}
	j, err := c.newJob(ctx, cfg)
	if err != nil {
		return c.fail(err)
	}
	if cfg.Preview {
		return c.fail(c.preview(ctx, cfg))
	}
	return c.fullReview(ctx, j)
}

// openRepo opens the repository under review.
func (c *Command) openRepo(ctx context.Context, cfg *Config) (*git.Repo, error) {
	if st, err := os.Stat(cfg.Repo); err != nil || !st.IsDir() {
		return nil, usagef("--repo %q is not a directory: pass the path of a git repository", cfg.Repo)
	}
	return git.Open(ctx, cfg.Repo, git.Options{MaxProcs: cfg.MaxGitProcs, Logf: c.logf})
}

// logf prints progress to stderr.
func (c *Command) logf(format string, args ...any) {
	fmt.Fprintf(c.Stderr, "ocr: %s\n", safeLines(fmt.Sprintf(format, args...)))
}

// prepare opens the repository, computes the change and selects files.
func (c *Command) prepare(ctx context.Context, cfg *Config) (*git.Repo, *Change, Preview, error) {
	repo, err := c.openRepo(ctx, cfg)
	if err != nil {
		return nil, nil, Preview{}, err
	}
	ch, err := loadChange(ctx, repo, cfg)
	for _, n := range ch.Notes {
		c.logf("%s", n)
	}
	if err != nil {
		repo.Close()
		return nil, nil, Preview{}, err
	}
	return repo, ch, newPreview(ch, selectFiles(ch.Files, ch.Diffs, c.selection(ctx, cfg, repo, ch))), nil
}

// selection is the file-selection settings for a change.
func (c *Command) selection(ctx context.Context, cfg *Config, repo *git.Repo, ch *Change) selection {
	return selection{
		exclude: cfg.Exclude, include: cfg.Include, includeTests: cfg.IncludeTests,
		maxFileTokens: cfg.MaxFileTokens, generated: generatedProbe(ctx, repo, ch),
	}
}

// preview prints the selection without calling a model.
func (c *Command) preview(ctx context.Context, cfg *Config) error {
	repo, ch, p, err := c.prepare(ctx, cfg)
	if err != nil {
		return err
	}
	defer repo.Close()
	// rule.json's include/exclude select files too, and a broken rule
	// file or config ref must fail here as it would in the review.
	set, err := loadRules(ctx, cfg, repo, configRef(cfg, ch))
	if err != nil {
		return err
	}
	p = newPreview(ch, applyRuleSelection(p.Files, set))
	w, closeOut, err := c.output(cfg.Output)
	if err != nil {
		return err
	}
	defer closeOut()
	if cfg.Format == "json" {
		return p.writeJSON(w)
	}
	return p.writeText(w)
}

// output opens the --output file, or stdout.
func (c *Command) output(path string) (w interface{ Write([]byte) (int, error) }, closeFn func(), err error) {
	if path == "" || path == "-" {
		return c.Stdout, func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, nil, usagef("could not write %q: %w (choose a writable --output path)", path, err)
	}
	return f, func() { f.Close() }, nil
}
