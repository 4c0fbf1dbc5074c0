package git

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// GrepOptions describe one search.
type GrepOptions struct {
	// Pattern is a fixed string, or a Perl regexp when Perl is set. It
	// must be one non-blank line.
	Pattern string
	// Ref is the tree to search; "" searches the work tree.
	Ref string
	// Untracked also searches untracked, non-ignored files (work tree only).
	Untracked bool
	// NoIndex searches the directory as plain files, honouring .gitignore
	// (implied by a Repo from Plain); Ref must be "".
	NoIndex bool
	// IgnoreCase matches case-insensitively (Unicode-aware).
	IgnoreCase bool
	// Perl makes Pattern a Perl-compatible regular expression.
	Perl bool
	// MaxCount stops after this many matches per file (0 = no limit).
	MaxCount int
	// Pathspecs limit the search (git pathspec syntax, e.g. "*.go",
	// ":(exclude)vendor/").
	Pathspecs []string
	// Timeout bounds the search (default 10s); exceeding it is ErrTimeout.
	Timeout time.Duration
	// MaxBytes, when positive, stops reading after about that much output:
	// git is stopped and the output returned so far, cut after its last
	// whole line, is the result.
	MaxBytes int
}

// Grep runs `git grep -n -I` and returns its raw output: one
// "path:line:text" per match ("ref:path:line:text" when Ref is set).
// No match is (nil, nil).
func (r *Repo) Grep(ctx context.Context, o GrepOptions) ([]byte, error) {
	if err := r.checkGrep(&o); err != nil {
		return nil, err
	}
	args := r.grepArgs(ctx, o)
	timeout := o.Timeout
	if timeout <= 0 {
		timeout = defaultListTimeout
	}
	// A UTF-8 locale makes -i and -P Unicode-aware; messages stay English.
	c := call{args: args, timeout: timeout, locale: utf8Locale, objects: o.Ref != "" && !o.NoIndex}
	var lim *limitWriter
	if o.MaxBytes > 0 {
		lim = &limitWriter{max: o.MaxBytes}
		c.out = lim
	}
	out, err := r.run(ctx, c)
	if lim != nil {
		if out, err = lim.result(err); err == nil && len(out) == 0 {
			return nil, nil
		}
	}
	if exitCode(err) == 1 && len(out) == 0 {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("could not search for %q: %w", o.Pattern, err)
	}
	if o.MaxCount > 0 && !r.atLeast(2, 38) {
		out = capPerFile(out, o.MaxCount)
	}
	return out, nil
}

// checkGrep validates o, setting NoIndex for a Plain directory.
func (r *Repo) checkGrep(o *GrepOptions) error {
	o.NoIndex = o.NoIndex || r.plain
	switch {
	case strings.TrimSpace(o.Pattern) == "":
		return errors.New("empty search pattern: give a non-blank pattern")
	case strings.ContainsAny(o.Pattern, "\n\r\x00"):
		return errors.New("search pattern spans several lines: search for one line")
	case o.NoIndex && o.Ref != "":
		return errors.New("a search without the index reads the directory: it cannot take a ref")
	case o.Untracked && o.Ref != "":
		return errors.New("untracked files exist only in the work tree: search them without a ref")
	case o.Ref != "":
		return checkRef(o.Ref)
	}
	return nil
}

// grepArgs builds the command line. git grep has no --end-of-options:
// the pattern goes after -e and the ref has been checked by checkRef.
func (r *Repo) grepArgs(ctx context.Context, o GrepOptions) []string {
	args := []string{"grep", "-n", "-I", "--no-color", "-F"}
	if o.Perl {
		args[len(args)-1] = "-P"
	}
	if o.IgnoreCase {
		args = append(args, "-i")
	}
	if o.MaxCount > 0 && r.ensureVersion(ctx) && r.atLeast(2, 38) {
		args = append(args, "--max-count", strconv.Itoa(o.MaxCount))
	}
	switch {
	case o.NoIndex:
		args = append(args, "--no-index", "--exclude-standard")
	case o.Untracked:
		args = append(args, "--untracked")
	}
	args = append(args, "-e", o.Pattern)
	if o.Ref != "" {
		args = append(args, r.mapRef(o.Ref))
	}
	return append(append(args, "--"), o.Pathspecs...)
}

// matchPrefix finds the "path:line:" of a grep output line.
var matchPrefix = regexp.MustCompile(`^(.*?):[0-9]+:`)

// capPerFile keeps the first n matches of each file, for git older than
// 2.38, which lacks --max-count.
func capPerFile(out []byte, n int) []byte {
	var kept bytes.Buffer
	last, count := "", 0
	for _, line := range bytes.SplitAfter(out, []byte("\n")) {
		m := matchPrefix.FindSubmatch(line)
		if m == nil {
			continue
		}
		if file := string(m[1]); file != last {
			last, count = file, 0
		}
		if count++; count <= n {
			kept.Write(line)
		}
	}
	return kept.Bytes()
}
