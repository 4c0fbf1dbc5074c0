package git

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

// MinVersion is the oldest git ocr runs with (rev-parse
// --end-of-options); minMajor.minMinor is the same, as numbers.
const MinVersion = "2.30"

const minMajor, minMinor = 2, 30

// checkVersion records git's version and refuses one that is too old.
func (r *Repo) checkVersion(ctx context.Context) error {
	out, err := r.run(ctx, call{args: []string{"version"}})
	if err != nil {
		return fmt.Errorf("%w: could not run it: %w", ErrGitUnusable, err)
	}
	return r.setVersion(string(out))
}

// setVersion records the version `git version` printed and refuses one
// that is too old.
func (r *Repo) setVersion(out string) error {
	r.versionMu.Lock()
	r.version = parseVersion(out)
	r.versionMu.Unlock()
	if !r.atLeast(minMajor, minMinor) {
		return fmt.Errorf("%w: found %q", ErrGitUnusable, strings.TrimSpace(out))
	}
	return nil
}

// ensureVersion learns git's version once (a Plain Repo skips Open's
// check); it reports whether the version is known.
func (r *Repo) ensureVersion(ctx context.Context) bool {
	if r.atLeast(1, 0) {
		return true
	}
	return r.checkVersion(ctx) == nil
}

// parseVersion reads "git version 2.39.5 (Apple Git-146)" as {2, 39}.
func parseVersion(s string) [2]int {
	s = strings.TrimPrefix(strings.TrimSpace(s), "git version ")
	parts := strings.SplitN(s, ".", 3)
	var v [2]int
	for i := 0; i < 2 && i < len(parts); i++ {
		digits := strings.TrimRightFunc(parts[i], func(r rune) bool { return r < '0' || r > '9' })
		v[i], _ = strconv.Atoi(digits)
	}
	return v
}

// atLeast reports whether git is at least major.minor.
func (r *Repo) atLeast(major, minor int) bool {
	r.versionMu.Lock()
	defer r.versionMu.Unlock()
	return r.version[0] > major || r.version[0] == major && r.version[1] >= minor
}

// Version runs `git version` in dir and returns its output ("git version
// 2.39.5"), for `ocr env`.
func Version(ctx context.Context, dir string) (string, error) {
	r := Plain(dir, Options{})
	out, err := r.run(ctx, call{args: []string{"version"}})
	return strings.TrimSpace(string(out)), err
}
