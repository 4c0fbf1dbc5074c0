package runner

import (
	"context"
	"errors"
	"io"

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
	f, err := reporters.AppendFile(l.path)
	if err != nil {
		return err
	}
	err = l.make(f).Report(ctx, r)
	return errors.Join(err, f.Close())
}
