package runner

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/ocr-ci/ocr/internal/config"
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
	// IsTerminal reports whether Stdout is a terminal (colour in text output).
	IsTerminal bool
	// LookupEnv reads the environment (os.LookupEnv in cmd/ocr; a map in
	// tests). It is the only way ocr reads it: settings through
	// internal/config, the CI's variables through internal/ci. Nil means an
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
  ocr review [flags]          review a range (--from/--to), a commit (--commit) or the work tree
  ocr review --preview        show which files would be reviewed; no model is called
  ocr scan [--ref REF] [PATH...]  review whole files without a diff (scheduled audits; see docs/scan.md)
  ocr env                     show what ocr detected in this CI environment and what it would run
  ocr tools list              list the agent's tools (honours --tools)
  ocr tools call NAME JSON    run one tool and print what the model would receive
  ocr rules list              list the built-in review rules
  ocr rules check PATH...     show which rule applies to each path
  ocr version                 print the version

Run 'ocr review -h' for the flags. Exit codes: 0 ok, 1 findings at or above --fail-on,
2 usage or configuration error, 3 the review could not complete.
`

// Main runs the command line and returns the exit code.
func (c *Command) Main(ctx context.Context, args []string) int {
	if len(args) < 2 {
		fmt.Fprint(c.Stderr, usageText)
		return reporters.ExitUsage
	}
	var err error
	switch sub, rest := args[1], args[2:]; sub {
	case "review":
		return c.review(ctx, rest)
	case "scan":
		return c.scan(ctx, rest)
	case "version", "--version", "-version":
		if len(rest) > 0 {
			return c.fail(usagef("ocr version takes no arguments"))
		}
		fmt.Fprintf(c.Stdout, "ocr %s\n", Version)
		return reporters.ExitOK
	case "tools":
		err = c.tools(ctx, rest)
	case "rules":
		err = c.rules(ctx, rest)
	case "env":
		err = c.env(ctx, rest)
	case "help", "-h", "--help":
		fmt.Fprint(c.Stdout, usageText)
		return reporters.ExitOK
	default:
		err = usagef("unknown command %q: run 'ocr help' for the list", sub)
	}
	return c.fail(err)
}

// fail prints err (if any) and returns its exit code.
func (c *Command) fail(err error) int {
	if err == nil {
		return reporters.ExitOK
	}
	if errors.Is(err, flag.ErrHelp) {
		return reporters.ExitOK
	}
	fmt.Fprintf(c.Stderr, "ocr: %s\n", strings.TrimSpace(err.Error()))
	return exitCode(err)
}

// lookup is the environment the command reads.
func (c *Command) lookup(key string) (string, bool) {
	if c.LookupEnv == nil {
		return "", false
	}
	return c.LookupEnv(key)
}

// parseConfig reads the environment, then the flags, and validates once.
func (c *Command) parseConfig(name string, args []string) (*config.Config, *flag.FlagSet, error) {
	cfg, err := config.Load(c.lookup)
	if err != nil {
		return nil, nil, err
	}
	fs := flag.NewFlagSet("ocr "+name, flag.ContinueOnError)
	fs.SetOutput(c.Stderr)
	cfg.Bind(fs)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, nil, err
		}
		return nil, nil, &usageError{err}
	}
	// The flag package stops at the first argument that is not a flag:
	// the flags after it would be ignored silently (`ocr review HEAD
	// --preview` would call the model).
	if fs.NArg() > 0 {
		return nil, nil, usagef("ocr %s takes no argument %q: pass flags only (a commit is --commit REF, a range --from A --to B)", name, fs.Arg(0))
	}
	if err := cfg.Validate(); err != nil {
		return nil, nil, err
	}
	return &cfg, fs, nil
}
