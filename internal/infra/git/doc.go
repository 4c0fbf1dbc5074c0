// Package git is ocr's read-only wrapper around the git command line.
//
// Every call runs `git --no-pager` with configuration that would change the
// output (diff prefixes, colour, path quoting, hunk merging, submodule
// format, grep columns) pinned on the command line, hooks and fsmonitor
// disabled, GIT_TERMINAL_PROMPT=0, GIT_OPTIONAL_LOCKS=0 and LC_ALL=C
// (C.UTF-8 for grep, so that -i and -P are Unicode-aware). Refs
// are passed after --end-of-options (git grep, which lacks it, relies on
// the ref check alone) and refs beginning with '-' are rejected with
// ErrBadRef before git runs; paths go after --. Each call has a timeout and
// a failure is an *Error carrying the arguments, exit code and stderr.
//
// The number of short-lived git processes per Repo is bounded by
// Options.MaxProcs. File contents at a ref are read, and commits resolved
// and their parents read, through one long-lived `git cat-file --batch`
// process per Repo, started on first use and restarted if it dies or after
// a fetch; Close stops it. Names it cannot take safely go to rev-parse. Open
// learns git's version from the trace2 events of its one rev-parse.
//
// Nothing here writes to the repository, checks anything out or runs code
// from it, with one exception: EnsureHistory and EnsureParents may fetch
// missing commits into a shallow clone (fetching only adds objects).
//
// Git 2.30 or later is required (rev-parse --end-of-options); before 2.38,
// which added grep --max-count, Grep caps matches per file itself. ocr's
// tests run against git 2.39.
package git
