package runner

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/ocr-ci/ocr/review"
)

// errDeadline is the cause of the run's context when --timeout is reached.
type errDeadline struct{ d time.Duration }

func (e *errDeadline) Error() string {
	return fmt.Sprintf("the run's deadline (--timeout %s) was reached", e.d)
}

// deadline bounds the run, from the job's start, by --timeout.
func (j *job) deadline(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithDeadlineCause(ctx, j.started.Add(j.cfg.Timeout), &errDeadline{d: j.cfg.Timeout})
}

// markDeadline says on stderr that the deadline stopped the review. The
// review itself already says it: its status is not complete, and every
// file the deadline cut off is not reviewed with the deadline as cause.
func (c *Command) markDeadline(ctx context.Context, rv *review.Review) {
	var d *errDeadline
	if !errors.As(context.Cause(ctx), &d) {
		return
	}
	if rv.Status == review.StatusComplete {
		return
	}
	c.logf("%s: ocr stopped and writes the reports with what was reviewed, marked %s", d.Error(), rv.Status)
}
