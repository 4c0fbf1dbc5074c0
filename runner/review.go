package runner

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/ocr-ci/ocr/internal/app/cli"
	"github.com/ocr-ci/ocr/internal/app/config"
	"github.com/ocr-ci/ocr/internal/app/preview"
	"github.com/ocr-ci/ocr/internal/domain/change"
	"github.com/ocr-ci/ocr/internal/domain/rules"
	"github.com/ocr-ci/ocr/internal/domain/selection"
	"github.com/ocr-ci/ocr/internal/infra/git"
	"github.com/ocr-ci/ocr/reporters"
)

// review runs `ocr review`.
func (c *Command) review(ctx context.Context, args []string) int {
	cfg, err := c.parseConfig("review", args)
	if err == nil {
		err = cli.CheckReview(cfg, args)
	}
	if err != nil {
		return c.fail(err)
	}
	if code, done := c.converse(ctx, cfg); done {
		return code
	}
	j, err := c.newJob(ctx, cfg)
	if err != nil {
		return c.fail(err)
	}
	if cfg.Preview {
		if err := j.checkModel(j.reg); err != nil {
			return c.fail(err)
		}
		return c.fail(c.preview(ctx, cfg))
	}
	return c.fullReview(ctx, j)
}

// openRepo opens the repository under review.
func (c *Command) openRepo(ctx context.Context, cfg *config.Config) (*git.Repo, error) {
	if st, err := os.Stat(cfg.Repo); err != nil || !st.IsDir() {
		return nil, usagef("--repo %q is not a directory: pass the path of a git repository", cfg.Repo)
	}
	return git.Open(ctx, cfg.Repo, git.Options{MaxProcs: cfg.MaxGitProcs, Logf: c.logf})
}

// logf prints progress to stderr, prefixed "ocr: " once: the posters and
// the API clients it is lent to write their lines with the prefix already.
func (c *Command) logf(format string, args ...any) {
	msg := strings.TrimPrefix(fmt.Sprintf(format, args...), "ocr: ")
	// Best effort: progress on stderr has no one to report a failed write to.
	_, _ = fmt.Fprintf(c.Stderr, "ocr: %s\n", safeLines(msg))
}

// prepared is the deterministic part of a review: the repository, the
// change, the rules and the file selection.
type prepared struct {
	repo    *git.Repo
	change  *change.Change
	rules   *rules.Set
	preview preview.Preview
}

// prepare opens the repository, computes the change, loads the rules and
// selects files (flags, defaults, then rule.json's include/exclude). A
// broken rule file or config ref fails here, before any model call.
func (c *Command) prepare(ctx context.Context, cfg *config.Config) (*prepared, error) {
	repo, err := c.openRepo(ctx, cfg)
	if err != nil {
		return nil, err
	}
	ch, err := loadChange(ctx, repo, cfg)
	for _, n := range ch.Notes {
		c.logf("%s", n)
	}
	if err != nil {
		closeRepo(repo)
		return nil, err
	}
	set, err := loadRules(ctx, cfg, repo, configRef(cfg, ch))
	if err != nil {
		closeRepo(repo)
		return nil, err
	}
	if len(ch.Files) == 0 {
		c.logf("%s", emptyChangeHint(ch))
	}
	files := set.ApplySelection(selection.Files(ch.Files, ch.Diffs, c.selection(ctx, cfg, repo, ch)))
	files = selection.CapFiles(selection.MarkBudget(files, ch.OverBudget, cfg.MaxFileTokens), cfg.MaxFiles)
	return &prepared{repo: repo, change: ch, rules: set, preview: preview.New(ch, files)}, nil
}

// loadChange loads the change the configuration asks for.
func loadChange(ctx context.Context, repo *git.Repo, c *config.Config) (*change.Change, error) {
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

// selection is the file-selection settings for a change.
func (c *Command) selection(ctx context.Context, cfg *config.Config, repo *git.Repo, ch *change.Change) selection.Options {
	return selection.Options{
		Exclude: cfg.Exclude, Include: cfg.Include, IncludeTests: cfg.IncludeTests,
		MaxFileTokens: cfg.MaxFileTokens, Generated: selection.GeneratedProbe(ctx, repo, ch.Files, ch.Ref()), OverBudget: ch.OverBudget,
	}
}

// preview prints the selection without calling a model.
func (c *Command) preview(ctx context.Context, cfg *config.Config) error {
	pr, err := c.prepare(ctx, cfg)
	if err != nil {
		return err
	}
	defer closeRepo(pr.repo)
	p := pr.preview
	w, closeOut, err := c.output(cfg.Output)
	if err != nil {
		return err
	}
	if strings.EqualFold(cfg.Format, "json") {
		err = p.WriteJSON(w)
	} else {
		err = p.WriteText(w)
	}
	closeOut()
	if err == nil && cfg.Output != "" && cfg.Output != "-" {
		c.logf("wrote %s", cfg.Output)
	}
	return err
}

// output opens the --output file, or stdout.
func (c *Command) output(path string) (w interface{ Write([]byte) (int, error) }, closeFn func(), err error) {
	if path == "" || path == "-" {
		return c.Stdout, func() {}, nil
	}
	f, err := reporters.CreateFile(path)
	if err != nil {
		return nil, nil, usagef("could not write %q: %w (choose a writable --output path)", path, err)
	}
	return f, func() {
		if err := f.Close(); err != nil {
			c.logf("%v", err)
		}
	}, nil
}
