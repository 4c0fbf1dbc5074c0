package llm

import (
	"errors"
	"fmt"

	openai "github.com/sashabaranov/go-openai"
)

// Error is a failed chat request after retries.
type Error struct {
	// Status is the last HTTP status, 0 for a network or decoding error.
	Status int
	// Retryable says whether the last failure was of a kind that is retried
	// (429, 5xx, network); true here means the attempts ran out.
	Retryable bool
	// Message is the provider's message or the transport error, without secrets.
	Message string
	// Attempts is the number of HTTP attempts made.
	Attempts int
	// Err is the underlying error.
	Err error
}

// Error implements error.
func (e *Error) Error() string {
	if e.Status > 0 {
		return fmt.Sprintf("LLM request failed with HTTP %d after %d attempt(s): %s%s", e.Status, e.Attempts, e.Message, hint(e.Status))
	}
	return fmt.Sprintf("LLM request failed after %d attempt(s): %s", e.Attempts, e.Message)
}

// Unwrap returns the underlying error (context errors stay visible to errors.Is).
func (e *Error) Unwrap() error { return e.Err }

// classify turns one attempt's error into an *Error. The caller checks its
// own context first: a per-attempt HTTP timeout is a network error (retried),
// the caller's cancellation is not.
func classify(err error, a *attempt) *Error {
	e := &Error{Err: err, Message: truncate(err.Error(), 300)}
	var apiErr *openai.APIError
	var reqErr *openai.RequestError
	switch {
	case errors.As(err, &apiErr):
		e.Status, e.Message = apiErr.HTTPStatusCode, truncate(apiErr.Message, 300)
	case errors.As(err, &reqErr):
		e.Status = reqErr.HTTPStatusCode
	default: // network error, or a body that did not decode (truncated)
		if a.status >= 400 {
			e.Status = a.status
		}
		e.Retryable = true
		return e
	}
	e.Retryable = retryableStatus(e.Status)
	return e
}

// retryableStatus: rate limits, server errors, timeouts and network errors
// (status 0, including truncated bodies) are retried; other 4xx are not.
func retryableStatus(s int) bool {
	return s == 0 || s == 408 || s == 429 || s >= 500
}

// hint says what to check for the statuses a configuration mistake causes.
func hint(status int) string {
	switch status {
	case 401, 403:
		return " (check OCR_LLM_TOKEN and that the key may use this model)"
	case 404:
		return " (check OCR_LLM_URL, which should end in /v1, and OCR_LLM_MODEL)"
	case 429:
		return " (rate limited: lower --concurrency or raise the provider's quota)"
	}
	return ""
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
