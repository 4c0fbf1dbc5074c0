package git

import (
	"errors"
	"fmt"
	"os/exec"
	"strings"
)

// EmptyTree is the SHA-1 name of the empty tree, the "from" side of a root
// commit's diff. Repositories using SHA-256 are handled by the Repo methods,
// which translate it.
const EmptyTree = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"

// emptyTreeSHA256 is the empty tree in a SHA-256 repository.
const emptyTreeSHA256 = "6ef19b41225c5369f1c104d45d8d85efa9b057b53b14b4b9b939dd74decc5321"

// Sentinel errors, matched with errors.Is.
var (
	// ErrNotRepository: the directory is not inside a git work tree.
	ErrNotRepository = errors.New("not a git repository (run ocr inside a git repository or pass --repo)")
	// ErrUnknownRef: the ref or commit does not exist in the repository.
	ErrUnknownRef = errors.New("unknown ref")
	// ErrBadRef: the ref is empty, begins with '-' or contains characters
	// that cannot be passed safely; git is not run.
	ErrBadRef = errors.New("invalid ref")
	// ErrNotFound: the file does not exist at the ref (or on disk).
	ErrNotFound = errors.New("file not found")
	// ErrTimeout: a git call exceeded its timeout.
	ErrTimeout = errors.New("git timed out")
	// ErrNoMergeBase: the two commits share no history in this repository.
	ErrNoMergeBase = errors.New("no merge base")
	// ErrShallow: history needed for the operation is cut off by a
	// shallow clone.
	ErrShallow = errors.New("history is missing in this shallow clone (use fetch-depth: 0 in actions/checkout, or GIT_DEPTH: 0 in GitLab CI)")
	// ErrGitUnusable: git is missing or older than MinVersion; the
	// message names the minimum, once.
	ErrGitUnusable = errors.New("ocr needs git " + MinVersion + " or later on PATH")
	// ErrDubiousOwnership: git refuses a repository that belongs to another
	// user (safe.directory); *Error matches it.
	ErrDubiousOwnership = errors.New("git refuses a repository owned by another user (dubious ownership)")
	// ErrOutsideRepository: a path leaves the repository (.., an absolute
	// path, a symlink pointing outside) or names git's own directory.
	ErrOutsideRepository = errors.New("path is outside the repository")
)

// Error is a failed git call.
type Error struct {
	// Args are git's arguments after the global options, starting with the
	// subcommand (for example ["rev-parse", "--verify", ...]).
	Args []string
	// ExitCode is git's exit status, or -1 when git did not exit by itself
	// (not started, timed out, cancelled).
	ExitCode int
	// Stderr is what git wrote to standard error (bounded).
	Stderr string
	// Err is the underlying error: ErrTimeout, a context error, an
	// *exec.ExitError, or the error starting git.
	Err error
}

// Error says which git command failed, why, and what to do about it.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("git ")
	b.WriteString(shorten(Redact(strings.Join(e.Args, " ")), 160))
	b.WriteString(" failed")
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(Redact(e.Err.Error()))
	} else {
		fmt.Fprintf(&b, " with exit status %d", e.ExitCode)
	}
	if msg := firstLines(Redact(e.Stderr), 3); msg != "" {
		b.WriteString(": ")
		b.WriteString(msg)
	}
	if h := e.hint(); h != "" {
		b.WriteString(" (")
		b.WriteString(h)
		b.WriteString(")")
	}
	return b.String()
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// Is matches ErrDubiousOwnership when git refused the repository's owner.
func (e *Error) Is(target error) bool {
	return target == ErrDubiousOwnership && strings.Contains(e.Stderr, "dubious ownership")
}

// hint suggests a remedy from the failure's cause.
func (e *Error) hint() string {
	s := e.Stderr
	switch {
	case errors.Is(e.Err, ErrTimeout):
		return "narrow the request (fewer paths, a more specific pattern) or raise the timeout"
	case strings.Contains(s, "dubious ownership"):
		return "the repository belongs to another user: run `git config --global --add safe.directory <dir>` for it"
	case strings.Contains(s, "not a git repository"):
		return "run ocr inside a git repository or pass --repo"
	case strings.Contains(s, "bad object"), strings.Contains(s, "unknown revision"),
		strings.Contains(s, "bad revision"), strings.Contains(s, "not our ref"):
		return "fetch the missing commits first; in CI use fetch-depth: 0 (actions/checkout) or GIT_DEPTH: 0 (GitLab)"
	case strings.Contains(s, "cannot use Perl-compatible regexes"), strings.Contains(s, "not built with"):
		return "this git lacks PCRE support: search without a Perl regexp"
	case errors.Is(e.Err, exec.ErrNotFound):
		return "install git and put it on PATH"
	}
	return ""
}

// shorten cuts s to at most n bytes, marking the cut.
func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// firstLines returns up to n non-empty lines of s joined by "; ".
func firstLines(s string, n int) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
		if len(out) == n {
			break
		}
	}
	return strings.Join(out, "; ")
}

// badRef wraps ErrBadRef with the offending ref.
func badRef(ref, why string) error {
	return fmt.Errorf("refusing ref %q: %s: %w", ref, why, ErrBadRef)
}

// checkRef rejects refs git could read as an option or that cannot be
// passed on one line.
func checkRef(ref string) error {
	switch {
	case ref == "":
		return badRef(ref, "empty")
	case strings.HasPrefix(ref, "-"):
		return badRef(ref, "a ref may not begin with '-'")
	case strings.ContainsAny(ref, "\x00\n\r"):
		return badRef(ref, "control characters")
	}
	return nil
}
