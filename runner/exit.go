package runner

import (
	"errors"
	"fmt"

	"github.com/ocr-ci/ocr/internal/app/cli"
	"github.com/ocr-ci/ocr/internal/app/config"
	"github.com/ocr-ci/ocr/internal/domain/change"
	"github.com/ocr-ci/ocr/internal/infra/git"
	"github.com/ocr-ci/ocr/reporters"
)

// usageError marks an error caused by flags, environment or arguments:
// the CLI's own type, so flag errors and the commands' usage errors are one.
type usageError = cli.UsageError

// usagef returns a usage error (exit 2).
func usagef(format string, args ...any) error {
	return &usageError{Err: fmt.Errorf(format, args...)}
}

// exitCode maps an error to an exit code: bad input and configuration are
// usage errors (2); everything else means the review could not complete (3).
func exitCode(err error) int {
	var ue *usageError
	switch {
	case err == nil:
		return reporters.ExitOK
	case errors.As(err, &ue),
		errors.As(err, new(*config.Error)),
		errors.As(err, new(*change.PathError)),
		errors.As(err, new(*change.ScanUsageError)),
		errors.Is(err, git.ErrNotRepository),
		errors.Is(err, git.ErrNoWorkTree),
		errors.Is(err, git.ErrUnknownRef),
		errors.Is(err, git.ErrBadRef),
		errors.Is(err, git.ErrShallow),
		errors.Is(err, git.ErrNoMergeBase),
		errors.Is(err, git.ErrGitUnusable),
		errors.Is(err, git.ErrDubiousOwnership):
		return reporters.ExitUsage
	}
	return reporters.ExitIncomplete
}
