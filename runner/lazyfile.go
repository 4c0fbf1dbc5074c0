package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/ocr-ci/ocr/reporters"
	"github.com/ocr-ci/ocr/review"
)

// lazyFile opens its file only when it reports: GitHub's command files
// ($GITHUB_OUTPUT, $GITHUB_STEP_SUMMARY) are appended to, never truncated.
type lazyFile struct {
	path string
	make func(w io.Writer) reporters.Reporter
}

var _ reporters.Reporter = (*lazyFile)(nil)

// Report opens the file for appending and runs the wrapped reporter.
func (l *lazyFile) Report(ctx context.Context, r *review.Review) error {
	f, err := os.OpenFile(l.path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("could not open %s for appending: %w", l.path, err)
	}
	err = l.make(f).Report(ctx, r)
	return errors.Join(err, f.Close())
}
