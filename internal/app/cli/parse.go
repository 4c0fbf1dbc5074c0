package cli

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/ocr-ci/ocr/internal/app/config"
)

// DefaultScanMaxFiles is how many selected files `ocr scan` reviews when
// --max-files is not given; the others are reported not reviewed with
// reason "budget".
const DefaultScanMaxFiles = 100

// Scan holds the flags only `ocr scan` has.
type Scan struct {
	Ref      string // --ref: the commit whose files are scanned
	Worktree bool   // --worktree: the work tree instead of a commit
	Since    string // --since: only the files changed since this ref
}

// Line is a command line read: the configuration (the environment, then
// the flags, validated once), scan's own flags and the positional
// arguments (PATHs, REPORTs, a tool's name and arguments).
type Line struct {
	Config *config.Config
	Scan   Scan
	Args   []string
}

// Parse is the one parse path of every command: it reads the environment
// through lookup, then the flags of command name ("review", "tools call"),
// and validates once. --help writes the command's usage to stdout and
// returns flag.ErrHelp (exit 0); a flag error is one line with a hint.
// Flags may come before or after the positional arguments of a command
// that takes some; the others refuse any.
func Parse(name string, args []string, lookup config.Lookup, stdout io.Writer) (*Line, error) {
	sub := Find(name)
	if sub == nil {
		return nil, fmt.Errorf("cli: no command %q", name)
	}
	if WantsHelp(args) {
		if err := Help(stdout, sub); err != nil {
			return nil, err
		}
		return nil, flag.ErrHelp
	}
	cfg, err := config.Load(lookup)
	if err != nil {
		return nil, err
	}
	l := &Line{Config: &cfg}
	fs := FlagSet(sub, &cfg, &l.Scan)
	flags := args
	if sub.positional {
		flags, l.Args = SplitInterleaved(name, args)
	}
	if err := fs.Parse(flags); err != nil {
		return nil, ParseError(sub, fs, err)
	}
	// The flag package stops at the first argument that is not a flag:
	// the flags after it would be ignored silently (`ocr review HEAD
	// --preview` would call the model).
	if fs.NArg() > 0 {
		return nil, usagef("ocr %s takes no argument %q: pass flags only (a commit is --commit REF, a range --from A --to B)", name, fs.Arg(0))
	}
	if sub.name == "scan" {
		if err := l.checkScan(fs); err != nil {
			return nil, err
		}
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return l, nil
}

// Help writes the usage of command sub with all its flags.
func Help(w io.Writer, sub *Command) error {
	var cfg config.Config
	return PrintHelp(w, sub, FlagSet(sub, &cfg, nil))
}

// bindScan adds scan's own flags over scan, and review's range flags,
// parsed only so that checkScan can say they are review's.
func bindScan(fs *flag.FlagSet, cfg *config.Config, scan *Scan) {
	fs.StringVar(&scan.Ref, "ref", "", "commit or `REF` whose files are scanned (default HEAD; in a repository)")
	fs.BoolVar(&scan.Worktree, "worktree", false, "scan the work tree (tracked and untracked, not ignored files) instead of a commit")
	fs.StringVar(&scan.Since, "since", "", "scan only the files changed since `REF` (whole files; in a repository)")
	fs.StringVar(&cfg.Shard, "shard", cfg.Shard, "review part `I/N` of the selection (in GitLab, default CI_NODE_INDEX/CI_NODE_TOTAL); merge the parts' JSON reports with ocr merge")
	if f := fs.Lookup("max-files"); f != nil {
		f.Usage = fmt.Sprintf("files reviewed at most (default %d for a scan); the others are reported with reason budget", DefaultScanMaxFiles)
	}
	review := flag.NewFlagSet("review", flag.ContinueOnError)
	cfg.Bind(review)
	for _, name := range scanRefused {
		f := review.Lookup(name)
		fs.Var(f.Value, name, f.Usage)
	}
}

// scanRefused are review's flags that name a diff: ocr scan parses them
// to refuse them by name.
var scanRefused = []string{"from", "to", "commit", "full"}

// checkScan refuses the review flags that name a diff and bad
// --ref/--worktree values, drops the range the environment names, and
// sets scan's own --max-files default.
func (l *Line) checkScan(fs *flag.FlagSet) error {
	var err error
	fs.Visit(func(f *flag.Flag) {
		for _, name := range scanRefused {
			if f.Name == name && err == nil {
				err = usagef("ocr scan reviews whole files, not a diff: --%s is for ocr review (scan a commit with --ref)", f.Name)
			}
		}
	})
	cfg, s := l.Config, l.Scan
	// The range the environment names (OCR_FROM, OCR_COMMIT) is a review's.
	cfg.From, cfg.To, cfg.Commit = "", "", ""
	switch {
	case err != nil:
		return err
	case s.Ref != "" && s.Worktree:
		return usagef("give either --ref or --worktree, not both")
	case strings.HasPrefix(s.Ref, "-") || strings.HasPrefix(s.Since, "-"):
		return usagef("--ref or --since %q begins with '-': refs like that are refused so git cannot take them for options", s.Ref+s.Since)
	}
	// --max-files / OCR_MAX_FILES as for review, with a scan's own default:
	// a whole repository is bigger than a pull request.
	if cfg.MaxFiles == 0 {
		cfg.MaxFiles = DefaultScanMaxFiles
	}
	return nil
}
