package reporters

import (
	"context"
	"errors"
	"io"

	"github.com/ocr-ci/ocr/review"
)

// Lazy opens its file only when it reports, for appending: GitHub's
// command files ($GITHUB_OUTPUT, $GITHUB_STEP_SUMMARY) are appended to,
// never truncated, and a run that reports nothing leaves them alone.
type Lazy struct {
	Path string
	// Dir is the working directory a relative Path starts from ("": the
	// process's).
	Dir string
	// Make builds the reporter that writes to the opened file.
	Make func(w io.Writer) Reporter
}

var _ Reporter = (*Lazy)(nil)

// Report opens the file for appending and runs the wrapped reporter.
func (l *Lazy) Report(ctx context.Context, r *review.Review) error {
	f, err := (Files{Dir: l.Dir}).AppendFile(l.Path)
	if err != nil {
		return err
	}
	err = l.Make(f).Report(ctx, r)
	return errors.Join(err, f.Close())
}
