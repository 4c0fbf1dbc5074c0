package runner

import (
	"context"
	"crypto/rand"
	"errors"
	"io"
	"strings"

	"github.com/ocr-ci/ocr/internal/app/ci"
	"github.com/ocr-ci/ocr/internal/app/cli"
	"github.com/ocr-ci/ocr/internal/app/config"
	"github.com/ocr-ci/ocr/internal/app/plan"
	"github.com/ocr-ci/ocr/internal/app/setup"
	"github.com/ocr-ci/ocr/internal/domain/change"
	"github.com/ocr-ci/ocr/internal/domain/selection"
	"github.com/ocr-ci/ocr/internal/infra/git"
	"github.com/ocr-ci/ocr/internal/infra/logtext"
	"github.com/ocr-ci/ocr/tools"
)

// tools runs `ocr tools list` and `ocr tools call NAME JSON`.
func (c *Command) tools(ctx context.Context, args []string) error {
	switch {
	case len(args) == 0:
		return usagef("ocr tools needs a subcommand: list, or call NAME 'JSON-ARGS'. Run 'ocr tools --help'.")
	case cli.IsHelp(args[0]):
		return cli.PrintGroupHelp(c.Stdout, "tools")
	case args[0] != "list" && args[0] != "call":
		return usagef("unknown tools subcommand %q: use list or call. Run 'ocr tools --help'.", args[0])
	}
	l, err := c.parse("tools "+args[0], args[1:])
	if err != nil {
		return err
	}
	cfg, pos := l.Config, l.Args
	reg, err := setup.Registry(cfg)
	if err != nil {
		return err
	}
	if args[0] == "list" {
		if len(pos) > 0 {
			return usagef("ocr tools list takes no argument %q. Run 'ocr tools list --help'.", pos[0])
		}
		return tools.List(c.Stdout, reg)
	}
	if len(pos) != 2 {
		return usagef("usage: ocr tools call NAME 'JSON-ARGS' [--repo DIR] [--from A --to B | --commit C]. Run 'ocr tools call --help'.")
	}
	return c.callTool(ctx, cfg, reg, pos[0], pos[1])
}

// callTool runs one tool as the model would, against the mode the flags give.
func (c *Command) callTool(ctx context.Context, cfg *config.Config, reg *tools.Registry, name, args string) error {
	s, closeFn, err := c.toolSession(ctx, cfg)
	if err != nil {
		return err
	}
	defer closeFn()
	res := reg.CallJSON(ctx, s, name, args)
	e, err := ci.Load(c.lookup)
	if err != nil {
		return usagef("%w", err)
	}
	out := res.Text + "\n"
	if e.GitHub.Actions {
		// Tool output is repository content: in an Actions log, a line of it
		// could be taken for a workflow command.
		// https://docs.github.com/actions/reference/workflow-commands-for-github-actions#stopping-and-starting-workflow-commands
		token := rand.Text()
		out = "::stop-commands::" + token + "\n" + logtext.Inert(res.Text) + "\n::" + token + "::\n"
	}
	if _, err := io.WriteString(c.Stdout, out); err != nil {
		return err
	}
	return callFailure(reg, name, res)
}

// callFailure makes an error answer a non-zero exit, as the model would
// be told its call failed: an unknown tool names the tools there are.
func callFailure(reg *tools.Registry, name string, res tools.Result) error {
	switch {
	case !reg.Has(name):
		var names []string
		for _, e := range reg.All() {
			names = append(names, e.Name)
		}
		return usagef("unknown tool %q; the tools are: %s", name, strings.Join(names, ", "))
	case res.IsError:
		return usagef("%s answered with an error (shown above), as the model would see it", name)
	}
	return nil
}

// toolSession builds the session the tools read through for cfg's mode; a
// directory that is not a repository is read as plain files.
func (c *Command) toolSession(ctx context.Context, cfg *config.Config) (*tools.Session, func(), error) {
	repo, err := plan.OpenRepo(ctx, cfg, c.logf)
	if errors.Is(err, git.ErrNotRepository) && cfg.Mode() == "workspace" {
		return &tools.Session{Source: selection.GuardSecrets(tools.DirSource(cfg.Path(cfg.Repo))), Diffs: map[string]string{}}, func() {}, nil
	}
	if err != nil {
		return nil, nil, err
	}
	ch, err := plan.LoadChange(ctx, repo, cfg)
	if err != nil {
		plan.CloseRepo(repo)
		return nil, nil, err
	}
	moved := selection.SecretMoves(ch.Files)
	return &tools.Session{Source: selection.GuardSecrets(sourceFor(repo, ch), moved...), Diffs: selection.PublicDiffs(ch.Diffs, moved...)}, func() { plan.CloseRepo(repo) }, nil
}

// sourceFor returns where the tools read: the reviewed commit, or the work tree.
func sourceFor(repo *git.Repo, ch *change.Change) tools.Source {
	if ch.Head == "" {
		return tools.WorkSource(repo)
	}
	return tools.RefSource(repo, ch.Head)
}
