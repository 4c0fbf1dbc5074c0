// Package plan decides what a run reviews, before any model call: the
// repository opened, the change loaded (or a scan's files read), the rules
// layered and the files selected, as --preview shows them. A broken rule
// file or config ref fails here, at no cost in tokens.
package plan

import (
	"context"
	"fmt"
	"os"

	"github.com/ocr-ci/ocr/internal/app/cli"
	"github.com/ocr-ci/ocr/internal/app/config"
	"github.com/ocr-ci/ocr/internal/app/preview"
	"github.com/ocr-ci/ocr/internal/domain/change"
	"github.com/ocr-ci/ocr/internal/domain/rules"
	"github.com/ocr-ci/ocr/internal/domain/selection"
	"github.com/ocr-ci/ocr/internal/infra/git"
)

// Logf prints one line of progress.
type Logf func(format string, args ...any)

// Review is the deterministic part of a review: the repository, the
// change, the rules and the file selection.
type Review struct {
	Repo    *git.Repo
	Change  *change.Change
	Rules   *rules.Set
	Preview preview.Preview
}

// ForReview opens the repository, computes the change, loads the rules and
// selects files (flags, defaults, then rule.json's include/exclude).
func ForReview(ctx context.Context, cfg *config.Config, logf Logf) (*Review, error) {
	repo, err := OpenRepo(ctx, cfg, logf)
	if err != nil {
		return nil, err
	}
	ch, err := LoadChange(ctx, repo, cfg)
	for _, n := range ch.Notes {
		logf("%s", n)
	}
	if err != nil {
		CloseRepo(repo)
		return nil, err
	}
	set, err := Rules(ctx, cfg, repo, ConfigRef(cfg, ch))
	if err != nil {
		CloseRepo(repo)
		return nil, err
	}
	if len(ch.Files) == 0 {
		logf("%s", emptyChangeHint(ch))
	}
	files := set.ApplySelection(selection.Files(ch.Files, ch.Diffs, Selection(ctx, cfg, repo, ch)))
	files = selection.CapFiles(selection.MarkBudget(files, ch.OverBudget, cfg.MaxFileTokens), cfg.MaxFiles)
	return &Review{Repo: repo, Change: ch, Rules: set, Preview: preview.New(ch, files)}, nil
}

// Close stops the repository's cat-file process.
func (r *Review) Close() { CloseRepo(r.Repo) }

// OpenRepo opens the repository under review (--repo).
func OpenRepo(ctx context.Context, cfg *config.Config, logf Logf) (*git.Repo, error) {
	dir := cfg.Path(cfg.Repo)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil, usagef("--repo %q is not a directory: pass the path of a git repository", cfg.Repo)
	}
	return git.Open(ctx, dir, git.Options{MaxProcs: cfg.MaxGitProcs, Logf: logf})
}

// CloseRepo stops repo's cat-file process when a command is done with it.
// Nothing is lost if that fails (the repository is only read), so the error
// is dropped.
func CloseRepo(repo *git.Repo) { _ = repo.Close() }

// LoadChange loads the change the configuration asks for.
func LoadChange(ctx context.Context, repo *git.Repo, c *config.Config) (*change.Change, error) {
	return change.Load(ctx, repo, change.Request{Mode: c.Mode(), From: c.From, To: c.To,
		FromIsGuess: c.FromIsGuess, Commit: c.Commit, Budget: c.DiffBudget()})
}

// emptyChangeHint says that there is nothing to review and how to review
// something: the last commit, or the branch against its base.
func emptyChangeHint(ch *change.Change) string {
	if ch.Mode == "workspace" {
		return "nothing to review: the work tree has no changes against HEAD. " +
			"Review the last commit with --commit HEAD, or the branch with --from origin/main"
	}
	return fmt.Sprintf("nothing to review: %s..%s changes no file", preview.Short(ch.Base), preview.Short(ch.Head))
}

// Selection is the file-selection settings for a change.
func Selection(ctx context.Context, cfg *config.Config, repo *git.Repo, ch *change.Change) selection.Options {
	return selection.Options{
		Exclude: cfg.Exclude, Include: cfg.Include, IncludeTests: cfg.IncludeTests,
		MaxFileTokens: cfg.MaxFileTokens, Generated: selection.GeneratedProbe(ctx, repo, ch.Files, ch.Ref()), OverBudget: ch.OverBudget,
	}
}

// ConfigRef is where repository configuration is trusted from:
// --config-ref (the base in CI), else the reviewed commit, else the work
// tree.
func ConfigRef(cfg *config.Config, ch *change.Change) string {
	if cfg.ConfigRef != "" {
		return cfg.ConfigRef
	}
	return ch.Head
}

// usagef returns a usage error (exit 2).
func usagef(format string, args ...any) error {
	return &cli.UsageError{Err: fmt.Errorf(format, args...)}
}
