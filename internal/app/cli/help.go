// Package cli is ocr's command-line surface apart from the commands
// themselves: each command's usage and flags, help on stdout, and flag
// errors as one line with a suggestion.
package cli

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/ocr-ci/ocr/internal/app/config"
	"github.com/ocr-ci/ocr/internal/infra/git"
	"github.com/ocr-ci/ocr/internal/infra/textdist"
)

// Command describes one command for its help and its flags.
type Command struct {
	name     string // "review", "tools list"
	synopsis string
	about    string
	// flags are the review flags the command takes, in help order; nil
	// means every review flag (grouped); none means it takes no flags.
	flags []string
	none  bool
	// positional: the command takes arguments, and flags may come
	// before or after them.
	positional bool
}

var subcommands = []Command{
	{name: "review", synopsis: "ocr review [flags]", about: `Review a change with the model and write the reports.

What is reviewed: --from REF (to --to, default HEAD), --commit REF, or with
neither the work tree against HEAD (untracked files count as added). In CI
the range and the reports come from the CI's variables; 'ocr env' shows them.
Settings are read from the OCR_* variables first, then the flags, which win.
The model's endpoint: OCR_LLM_URL, OCR_LLM_TOKEN and OCR_LLM_MODEL (or
OPENAI_BASE_URL, OPENAI_API_KEY, OPENAI_MODEL); see docs/providers.md.`},
	{name: "scan", synopsis: "ocr scan [--ref REF | --worktree] [--since REF] [--shard I/N] [flags] [PATH...]", about: `Review whole files without a diff, for scheduled audits: the files under
each PATH at --ref (default HEAD), the work tree with --worktree, or,
outside a repository, the plain directory --repo (its .gitignore honoured);
with --since, only the files changed since REF. A PATH is a file or
directory relative to the current directory, like git's pathspecs; none
means everything; flags may come before or after the PATHs. Over
--max-files, source code comes first, then build and CI files, then other
text, the most recently changed first.
--shard I/N reviews one part of N; ocr merge joins the parts' JSON reports.
Posting to a pull or merge request is refused. See docs/scan.md.`,
		flags: ScanFlags, positional: true},
	{name: "merge", synopsis: "ocr merge [flags] REPORT.json...", about: `Write the reports of a sharded scan as one run would have written them, from
the JSON reports of its shards (ocr scan --shard I/N --report json=PATH):
one SARIF run with every shard's results, one Code Quality file, one
summary, --fail-on applied to the whole. Reports of different commits,
modes or configurations are refused (exit 2); a missing shard is named, the
reports are written with what was given, and the exit code is 3. See
docs/scan.md.`, flags: MergeFlags, positional: true},
	{name: "env", synopsis: "ocr env [flags]", about: `Show what ocr detects here and what 'ocr review' would do: platform, event,
range, pull request, reports, git, the LLM endpoint and model, and which
tokens are set (never their values). Takes the flags of 'ocr review'.`},
	{name: "init", synopsis: "ocr init [--forge github|gitlab] [--repo DIR]", about: `Write the CI file that runs ocr for the forge the origin remote names:
.github/workflows/ocr.yml (reviews and the comment events) on GitHub, the
component include in .gitlab-ci.yml on GitLab. A file that exists is never
overwritten (what to add is printed instead). Then print the secrets or
CI/CD variables still to set, and the command that checks them (ocr env).`,
		flags: []string{"forge", "repo"}},
	{name: "tools list", synopsis: "ocr tools list [--tools FILE]", about: `List the agent's tools with their parameters.`,
		flags: []string{"tools"}, positional: true},
	{name: "tools call", synopsis: "ocr tools call NAME 'JSON-ARGS' [flags]", about: `Run one tool as the model would and print exactly what it would receive.
It reads the commit --commit (or the range's head), or the work tree.
Unknown tools, unknown or missing arguments are errors (exit 2).`,
		flags: []string{"repo", "from", "to", "commit", "tools"}, positional: true},
	{name: "rules list", synopsis: "ocr rules list", about: `List the built-in review rules.`, none: true},
	{name: "rules check", synopsis: "ocr rules check PATH... [flags]", about: `Show which review rule applies to each path and the text the model gets.`,
		flags: []string{"repo", "rule", "config-ref"}, positional: true},
	{name: "version", synopsis: "ocr version", about: `Print the version of ocr.`, none: true},
}

// ScanFlags are the flags `ocr scan` takes, in help order: its own, then the
// review flags that make sense without a diff.
var ScanFlags = []string{"ref", "worktree", "since", "shard", "repo", "preview", "exclude", "include", "include-tests",
	"max-file-tokens", "format", "output", "report", "verbose", "quiet", "fail-on", "allow-partial", "sarif-file",
	"sarif-category", "model", "language", "background", "background-file", "rule", "config-ref", "tools",
	"effort", "no-filter", "passes", "min-votes", "timeout", "max-tokens-budget", "max-cost", "max-files", "concurrency",
	"max-comments", "max-git-procs"}

// MergeFlags are the flags `ocr merge` takes: the reports and the exit code.
var MergeFlags = []string{"report", "format", "output", "verbose", "fail-on", "allow-partial", "sarif-category"}

// groupHelp is the help of a command that only has subcommands.
var groupHelp = map[string]string{
	"tools": "ocr tools list                        list the agent's tools and their parameters\n" +
		"ocr tools call NAME 'JSON-ARGS'       run one tool as the model would",
	"rules": "ocr rules list                        list the built-in review rules\n" +
		"ocr rules check PATH...               show which rule applies to each path",
}

// Find returns the command named name ("review", "tools list"), nil when
// there is none.
func Find(name string) *Command {
	for i := range subcommands {
		if subcommands[i].name == name {
			return &subcommands[i]
		}
	}
	return nil
}

// IsHelp reports whether arg asks for help.
func IsHelp(arg string) bool {
	switch arg {
	case "-h", "--help", "-help", "help":
		return true
	}
	return false
}

// WantsHelp reports whether args ask for help before a "--".
func WantsHelp(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if a == "-h" || a == "--help" || a == "-help" {
			return true
		}
	}
	return false
}

// PrintGroupHelp writes the help of `ocr tools` or `ocr rules`.
func PrintGroupHelp(w io.Writer, group string) error {
	var b strings.Builder
	b.WriteString("Usage:\n")
	for _, l := range strings.Split(groupHelp[group], "\n") {
		fmt.Fprintf(&b, "  %s\n", l)
	}
	fmt.Fprintf(&b, "\nRun 'ocr %s SUBCOMMAND --help' for one of them.\n", group)
	_, err := io.WriteString(w, b.String())
	return err
}

// FlagSet builds the command's flags over cfg: the review flags it takes,
// with -v for --verbose, and for `ocr scan` its own over scan (nil: a
// scratch value). Parsing
// prints nothing: errors are reported by ParseError and help by PrintHelp.
func FlagSet(sub *Command, cfg *config.Config, scan *Scan) *flag.FlagSet {
	all := flag.NewFlagSet("ocr "+sub.name, flag.ContinueOnError)
	cfg.Bind(all)
	fs := flag.NewFlagSet("ocr "+sub.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	all.VisitAll(func(f *flag.Flag) {
		if sub.takes(f.Name) {
			fs.Var(f.Value, f.Name, f.Usage)
		}
	})
	if v := fs.Lookup("verbose"); v != nil {
		fs.Var(v.Value, "v", "short for --verbose")
	}
	if sub.name == "scan" {
		if scan == nil {
			scan = new(Scan)
		}
		bindScan(fs, cfg, scan)
	}
	return fs
}

// takes reports whether the command takes the review flag name.
func (s *Command) takes(name string) bool {
	if s.none {
		return false
	}
	return s.flags == nil || slices.Contains(s.flags, name)
}

// PrintHelp writes the command's usage: synopsis, what it does, its flags
// by topic with their variables, and for review the exit codes.
func PrintHelp(w io.Writer, sub *Command, fs *flag.FlagSet) error {
	var b strings.Builder
	fmt.Fprintf(&b, "Usage: %s\n\n%s\n", sub.synopsis, sub.about)
	envOf := config.FlagEnv()
	envOf["shard"] = "OCR_SHARD" // scan's own flag, read into Config.Shard
	groups := []config.FlagGroup{{Title: "Flags", Flags: sub.flags}}
	if sub.flags == nil && !sub.none {
		groups = config.FlagGroups()
	}
	for _, g := range groups {
		if len(g.Flags) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n%s:\n", g.Title)
		for _, name := range g.Flags {
			if f := fs.Lookup(name); f != nil {
				writeFlag(&b, f, envOf[name])
			}
		}
	}
	if sub.name == "review" || sub.name == "merge" {
		fmt.Fprintf(&b, "\nExit codes: 0 reviewed, 1 a finding at or above --fail-on, 2 usage or\n"+
			"configuration error (nothing reviewed), 3 the review could not complete.\n"+
			"Needs git %s or later. Reference: docs/reference.md.\n", git.MinVersion)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// helpWidth is the width help text is wrapped to; flagColumn is where the
// flags' descriptions start.
const helpWidth, flagColumn = 80, 28

// writeFlag writes one flag: "  --name ARG" then its description (and
// variable) wrapped at helpWidth, starting on the same line when it fits.
func writeFlag(b *strings.Builder, f *flag.Flag, env string) {
	arg, usage := flag.UnquoteUsage(f)
	if bv, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && bv.IsBoolFlag() {
		arg = ""
	} else if arg == "value" {
		arg = "N"
	}
	head := "  --" + f.Name
	if f.Name == "verbose" {
		head = "  -v, --verbose"
	}
	if arg != "" {
		head += " " + arg
	}
	if env != "" {
		usage += " [" + env + "]"
	}
	line := head
	if len(line) >= flagColumn-1 {
		b.WriteString(line + "\n")
		line = ""
	}
	for _, word := range strings.Fields(usage) {
		switch {
		case len(line) < flagColumn:
			line += strings.Repeat(" ", flagColumn-len(line)) + word
		case len(line)+1+len(word) > helpWidth:
			b.WriteString(line + "\n")
			line = strings.Repeat(" ", flagColumn) + word
		default:
			line += " " + word
		}
	}
	b.WriteString(line + "\n")
}

// ParseError turns the flag package's error into one line with a hint.
func ParseError(sub *Command, fs *flag.FlagSet, err error) error {
	help := fmt.Sprintf("Run '%s --help'.", "ocr "+sub.name)
	msg := err.Error()
	switch {
	case strings.HasPrefix(msg, "flag provided but not defined: "):
		name := strings.TrimLeft(strings.TrimPrefix(msg, "flag provided but not defined: "), "-")
		if s := closest(name, fs); s != "" {
			return usagef("unknown flag --%s; did you mean --%s? %s", name, s, help)
		}
		if sub.none {
			return usagef("ocr %s takes no arguments (--%s). %s", sub.name, name, help)
		}
		return usagef("unknown flag --%s. %s", name, help)
	case strings.HasPrefix(msg, "flag needs an argument: "):
		name := strings.TrimLeft(strings.TrimPrefix(msg, "flag needs an argument: "), "-")
		if name == "format" {
			return usagef("--format needs a value: %s. %s", strings.Join(config.FormatKinds(), ", "), help)
		}
		return usagef("--%s needs a value. %s", name, help)
	case strings.HasPrefix(msg, "invalid value ") || strings.HasPrefix(msg, "invalid boolean value "):
		// invalid value "x" for flag -name: why
		msg = strings.Replace(msg, " for flag -", " for --", 1)
		return usagef("%s. %s", msg, help)
	}
	return &UsageError{Err: err}
}

// closest suggests the flag nearest to name: a prefix or at most two edits.
func closest(name string, fs *flag.FlagSet) string {
	best, bestD := "", 3
	fs.VisitAll(func(f *flag.Flag) {
		if len(f.Name) < 2 {
			return
		}
		d := textdist.Levenshtein(name, f.Name)
		if strings.HasPrefix(f.Name, name) && len(name) >= 3 {
			d = min(d, 1)
		}
		if d < bestD && d < len(name) { // -x is not a typo of --to
			best, bestD = f.Name, d
		}
	})
	return best
}

// IsGroup reports whether name is a command that only has subcommands
// (`ocr tools`, `ocr rules`).
func IsGroup(name string) bool { return groupHelp[name] != "" }

// UsageError is a mistake on the command line (exit 2).
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// usagef returns a usage error.
func usagef(format string, args ...any) error {
	return &UsageError{Err: fmt.Errorf(format, args...)}
}
