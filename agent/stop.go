package agent

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/ocr-ci/ocr/review"
)

// runStopper is an error after which every other request of the run would
// fail the same way (*llm.Error: a wrong URL, key or model, an endpoint
// that does not answer).
type runStopper interface{ StopsRun() bool }

// stopsRun reports whether err should stop the whole run.
func stopsRun(err error) bool {
	var s runStopper
	return errors.As(err, &s) && s.StopsRun()
}

// stopped is the cause the run's context is cancelled with when a request
// fails in a way that would fail every other one.
type stopped struct{ err error }

func (s *stopped) Error() string { return s.err.Error() }
func (s *stopped) Unwrap() error { return s.err }

// halter cancels the run at the first definitive failure: the requests in
// flight end, no group starts after it.
type halter struct {
	once   sync.Once
	cancel context.CancelCauseFunc
}

// halt stops the run with err; only the first call counts, and it alone
// returns true.
func (h *halter) halt(err error) bool {
	first := false
	h.once.Do(func() { first = true; h.cancel(&stopped{err: err}) })
	return first
}

// ended maps why ctx ended to a reason and a detail: the run stopped at a
// definitive provider failure, the run's deadline, the group's timeout, or
// a cancellation.
func ended(ctx context.Context, groupTimeout string) (reason review.Reason, detail string) {
	cause := context.Cause(ctx)
	var s *stopped
	switch {
	case errors.As(cause, &s):
		return review.ReasonProvider, s.Error()
	case errors.Is(cause, errGroupTimeout):
		return review.ReasonTimeout, fmt.Sprintf("the group did not finish within %s", groupTimeout)
	case errors.Is(cause, context.Canceled):
		return review.ReasonTimeout, "the run was cancelled"
	case cause != nil && !errors.Is(cause, context.DeadlineExceeded):
		return review.ReasonTimeout, cause.Error() // the run's deadline, as the caller worded it
	}
	return review.ReasonTimeout, "the run's time ran out"
}

// errGroupTimeout is the cause of a group's own timeout.
var errGroupTimeout = errors.New("group timeout")
