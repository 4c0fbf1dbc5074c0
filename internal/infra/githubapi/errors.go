package githubapi

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/google/go-github/v62/github"
)

// Error is a request that failed: what ocr tried, and GitHub's status and
// own message when it answered. Callers add what to do (which permission)
// around it; errors.As finds it, errors.Is the cause.
type Error struct {
	// What ocr tried, as in "could not <What>".
	What string
	// Status is GitHub's HTTP status, 0 when it did not answer.
	Status int
	// Message is GitHub's own message, with its validation errors'
	// ("Validation Failed; pull_request_review_thread.line must be part of the diff").
	Message string
	err     error
}

// Error says what failed and what GitHub answered.
func (e *Error) Error() string {
	switch {
	case e.Status == http.StatusNotFound:
		return fmt.Sprintf("could not %s: GitHub answered 404 (deleted, or the token cannot see it)", e.What)
	case e.Status != 0:
		return fmt.Sprintf("could not %s: GitHub answered %d %q", e.What, e.Status, e.Message)
	}
	return fmt.Sprintf("could not %s: %v", e.What, e.err)
}

// Unwrap is go-github's error.
func (e *Error) Unwrap() error { return e.err }

// Wrap names what failed, keeping GitHub's status and message; nil stays nil.
func Wrap(err error, what string) error {
	if err == nil {
		return nil
	}
	return &Error{What: what, Status: Status(err), Message: Message(err), err: err}
}

// Status is the HTTP status of a go-github error, 0 when there is none.
func Status(err error) int {
	var er *github.ErrorResponse
	if errors.As(err, &er) && er.Response != nil {
		return er.Response.StatusCode
	}
	return 0
}

// Message is GitHub's own message of a go-github error and of its
// validation errors, "" when there is none.
func Message(err error) string {
	var er *github.ErrorResponse
	if !errors.As(err, &er) {
		return ""
	}
	parts := []string{er.Message}
	for _, e := range er.Errors {
		if m := strings.TrimSpace(e.Message); m != "" {
			parts = append(parts, m)
		}
	}
	return strings.Join(parts, "; ")
}
