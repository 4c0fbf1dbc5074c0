package gitlabapi

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	gitlab "gitlab.com/gitlab-org/api/client-go"
)

// Error is a request that failed: what ocr tried, and GitLab's status and
// own message when it answered. Callers add what to do (which token,
// which scope) around it; errors.As finds it, errors.Is the cause.
type Error struct {
	// What ocr tried, as in "could not <What>".
	What string
	// Status is GitLab's HTTP status, 0 when it did not answer.
	Status int
	// Message is GitLab's own message ("403 Forbidden", "Note {:line_code=>...}").
	Message string
	err     error
}

// Error says what failed and what GitLab answered.
func (e *Error) Error() string {
	switch {
	case e.Status == http.StatusNotFound:
		return fmt.Sprintf("could not %s: GitLab answered 404 %q (deleted, or the token cannot see it)", e.What, e.Message)
	case e.Status != 0:
		return fmt.Sprintf("could not %s: GitLab answered %d %q", e.What, e.Status, e.Message)
	}
	return fmt.Sprintf("could not %s: %v", e.What, e.err)
}

// Unwrap is the client's error.
func (e *Error) Unwrap() error { return e.err }

// Wrap names what failed, keeping GitLab's status and message; nil stays nil.
func Wrap(err error, what string) error {
	if err == nil {
		return nil
	}
	return &Error{What: what, Status: Status(err), Message: message(err), err: err}
}

// Status is the HTTP status of a client-go error, 0 when there is none.
func Status(err error) int {
	var er *gitlab.ErrorResponse
	if errors.As(err, &er) && er.Response != nil {
		return er.Response.StatusCode
	}
	if errors.Is(err, gitlab.ErrNotFound) {
		return http.StatusNotFound
	}
	return 0
}

// Refused reports whether GitLab refused the token: 401 (not valid) or
// 403 (not allowed).
func Refused(err error) bool {
	s := Status(err)
	return s == http.StatusUnauthorized || s == http.StatusForbidden
}

// message is GitLab's own message of a client-go error.
func message(err error) string {
	var er *gitlab.ErrorResponse
	if errors.As(err, &er) {
		// client-go flattens {"message": "403 Forbidden"} to
		// "{message: 403 Forbidden}"; the message is what is inside.
		m := strings.TrimSpace(er.Message)
		if in, ok := strings.CutPrefix(m, "{message: "); ok && strings.HasSuffix(in, "}") && !strings.Contains(in, "{") {
			m = strings.TrimSuffix(in, "}")
		}
		return m
	}
	if errors.Is(err, gitlab.ErrNotFound) {
		return "404 Not Found"
	}
	return ""
}
