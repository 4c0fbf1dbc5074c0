package runner

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/ocr-ci/ocr/internal/app/cli"
	"github.com/ocr-ci/ocr/internal/app/config"
	"github.com/ocr-ci/ocr/internal/app/scaffold"
	"github.com/ocr-ci/ocr/internal/infra/git"
	"github.com/ocr-ci/ocr/internal/infra/textdist"
	"github.com/ocr-ci/ocr/reporters"
)

// Version is the version of ocr, set at build time with
// -ldflags "-X github.com/ocr-ci/ocr/runner.Version=1.2.3".
var Version = "0.1.0"

// Command is the ocr command line, with its streams injected so tests run
// the whole CLI in-process.
type Command struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	// Dir is the working directory relative paths start from (--repo,
	// report and settings files, ocr merge's inputs); "" means the
	// process's. Tests set it instead of changing the process's directory.
	Dir string
	// IsTerminal reports whether Stdout is a terminal (colour in text output).
	IsTerminal bool
	// LookupEnv reads the environment (os.LookupEnv in cmd/ocr; a map in
	// tests). It is the only way ocr reads it: settings through
	// internal/app/config, the CI's variables through internal/app/ci. Nil means an
	// empty environment.
	LookupEnv func(key string) (string, bool)

	// sleep replaces the posters' waits (rate limits, write spacing) in
	// tests; nil means real timers.
	sleep func(ctx context.Context, d time.Duration) error
	// heartbeat replaces the agent's progress interval in tests (0: 15s).
	heartbeat time.Duration
}

const usageText = `ocr — AI code review for CI

Usage:
  ocr review [flags]                 review a range (--from/--to), a commit (--commit) or the work tree
  ocr review --preview               show which files would be reviewed; no model is called
  ocr scan [--ref REF] [PATH...]     review whole files without a diff (scheduled audits)
  ocr merge REPORT.json...           write a sharded scan's reports as one run's
  ocr env                            show what ocr detects here and what it would run
  ocr init                           write the CI file for this repository's forge
  ocr tools list                     list the agent's tools and their parameters
  ocr tools call NAME 'JSON-ARGS'    run one tool and print what the model would receive
  ocr rules list                     list the built-in review rules
  ocr rules check PATH...            show which rule applies to each path
  ocr version                        print the version

Run 'ocr help COMMAND' or 'ocr COMMAND --help' for a command's flags.
Exit codes: 0 reviewed, 1 a finding at or above --fail-on, 2 usage or
configuration error, 3 the review could not complete.
`

// Main runs the command line and returns the exit code.
func (c *Command) Main(ctx context.Context, args []string) int {
	if len(args) < 2 {
		// Best effort: stderr is where a failed write would be reported.
		_, _ = io.WriteString(c.Stderr, usageText)
		return reporters.ExitUsage
	}
	var err error
	switch sub, rest := args[1], args[2:]; sub {
	case "review":
		return c.review(ctx, rest)
	case "scan":
		return c.scan(ctx, rest)
	case "merge":
		return c.merge(ctx, rest)
	case "version", "--version", "-version":
		err = c.version(rest)
	case "tools":
		err = c.tools(ctx, rest)
	case "rules":
		err = c.rules(ctx, rest)
	case "env":
		err = c.env(ctx, rest)
	case "init":
		err = usageIf(scaffold.Main(ctx, c.Stdout, c.Dir, rest, Version, git.Options{Logf: c.logf}))
	case "help", "-h", "--help", "-help":
		return c.help(rest)
	default:
		err = unknownCommand(sub)
	}
	return c.fail(err)
}

// unknownCommand names the nearest command, if one is close.
func unknownCommand(sub string) error {
	best, bestD := "", 3
	for _, name := range []string{"review", "scan", "merge", "env", "init", "tools", "rules", "version", "help"} {
		if d := textdist.Levenshtein(sub, name); d < bestD {
			best, bestD = name, d
		}
	}
	if best != "" {
		return usagef("unknown command %q; did you mean %s? Run 'ocr help'.", sub, best)
	}
	return usagef("unknown command %q. Run 'ocr help' for the list.", sub)
}

// help runs `ocr help [COMMAND [SUBCOMMAND]]`.
func (c *Command) help(args []string) int {
	name := strings.Join(args, " ")
	switch {
	case name == "" || name == "--help" || name == "-h" || name == "-help":
		_, err := io.WriteString(c.Stdout, usageText)
		return c.fail(err)
	case cli.IsGroup(name):
		return c.fail(cli.PrintGroupHelp(c.Stdout, name))
	}
	sub := cli.Find(name)
	if sub == nil {
		return c.fail(usagef("no help for %q: the commands are review, scan, merge, env, init, tools list, tools call, rules list, rules check and version", name))
	}
	return c.fail(cli.Help(c.Stdout, sub))
}

// version runs `ocr version`.
func (c *Command) version(args []string) error {
	if len(args) > 0 {
		if !strings.HasPrefix(args[0], "-") {
			return usagef("ocr version takes no arguments (%q). Run 'ocr version --help'.", args[0])
		}
		if _, err := c.parseConfig("version", args); err != nil && !errors.Is(err, flag.ErrHelp) {
			return err
		} else if err != nil {
			return err
		}
		return usagef("ocr version takes no arguments (%q). Run 'ocr version --help'.", args[0])
	}
	_, err := fmt.Fprintf(c.Stdout, "ocr %s\n", Version)
	return err
}

// fail prints err (if any) and returns its exit code.
func (c *Command) fail(err error) int {
	if err == nil {
		return reporters.ExitOK
	}
	if errors.Is(err, flag.ErrHelp) {
		return reporters.ExitOK
	}
	msg := strings.TrimSpace(err.Error())
	if !strings.HasPrefix(msg, "ocr ") { // "ocr version takes …" needs no prefix
		msg = "ocr: " + msg
	}
	// Best effort: if stderr cannot be written, there is no one left to tell.
	_, _ = fmt.Fprintln(c.Stderr, safeLines(msg))
	return exitCode(err)
}

// lookup is the environment the command reads.
func (c *Command) lookup(key string) (string, bool) {
	if c.LookupEnv == nil {
		return "", false
	}
	return c.LookupEnv(key)
}

// parse reads the command line of command name through the one parse
// path (cli.Parse): the environment, then the flags, validated once.
func (c *Command) parse(name string, args []string) (*cli.Line, error) {
	l, err := cli.Parse(name, args, c.lookup, c.Stdout)
	if err != nil {
		return nil, err
	}
	l.Config.Dir = c.Dir
	return l, nil
}

// parseConfig is parse for the commands that need only the configuration.
func (c *Command) parseConfig(name string, args []string) (*config.Config, error) {
	l, err := c.parse(name, args)
	if err != nil {
		return nil, err
	}
	return l.Config, nil
}
