package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"syscall"

	openai "github.com/sashabaranov/go-openai"
)

// Kind says what a failed request amounts to: whether a retry can help,
// and whether the whole run should stop (a configuration mistake fails
// every request the same way).
type Kind int

// Kinds of failure. The retry policy lives here, in Retryable and
// StopsRun, not in the backoff.
const (
	// KindTransient: 429, 5xx, 408, a reset or truncated answer; retried.
	KindTransient Kind = iota
	// KindUnreachable: connection refused, DNS failure, connect timeout.
	KindUnreachable
	// KindAuth: 401 or 403.
	KindAuth
	// KindNotFound: 404 (wrong path or unknown model).
	KindNotFound
	// KindNotOpenAI: an answer that is not OpenAI-compatible JSON (an HTML
	// page, plain text), whatever its status.
	KindNotOpenAI
	// KindNoAnswer: no answer within the response timeout.
	KindNoAnswer
	// KindRejected: another 4xx (a request the provider refuses, such as
	// a prompt over the context window); not retried, fails one group.
	KindRejected
	// KindCancelled: the caller's context ended.
	KindCancelled
)

var kindNames = [...]string{"transient", "unreachable", "auth", "not_found", "not_openai", "no_answer", "rejected", "cancelled"}

// String names the kind (for logs and tests).
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind" + strconv.Itoa(int(k))
}

// Error is a failed chat request after retries.
type Error struct {
	// Kind classifies the failure.
	Kind Kind
	// Status is the last HTTP status, 0 when there was no response.
	Status int
	// Retryable says whether the last failure was of a kind that is retried
	// (429, 5xx, resets); true here means the attempts ran out.
	Retryable bool
	// Message is the provider's message, the transport error or an excerpt
	// of the body: redacted, then clipped at a word boundary.
	Message string
	// Attempts is the number of HTTP attempts made.
	Attempts int
	// Err is the underlying error.
	Err error

	// Window is the context window an over-context refusal reported (0:
	// none); the caller should split or shorten the request, never send
	// it again whole.
	Window int

	answered bool   // the endpoint had answered earlier in the run
	body     string // the start of the error body, for recognising refusals
	param    string // the error's param field
}

// OverContext reports whether the endpoint refused the request as longer
// than its context window.
func (e *Error) OverContext() bool { return e.Window > 0 }

// Error implements error: what failed, the status, the message, and what
// to check.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("LLM request failed")
	if e.Status > 0 {
		fmt.Fprintf(&b, " with HTTP %d", e.Status)
	}
	if e.Attempts > 1 {
		fmt.Fprintf(&b, " after %d attempts", e.Attempts)
	}
	if e.Message != "" {
		b.WriteString(": " + e.Message)
	}
	if h := e.Hint(); h != "" {
		b.WriteString(" (" + h + ")")
	}
	return b.String()
}

// Unwrap returns the underlying error (context errors stay visible to errors.Is).
func (e *Error) Unwrap() error { return e.Err }

// StopsRun reports whether every other request of the run would fail the
// same way, so the run should stop at this first occurrence: the endpoint
// cannot be reached, refuses the key, does not know the path or model, or
// does not speak the OpenAI protocol; or it has never answered and did
// not answer this request within the response timeout.
func (e *Error) StopsRun() bool {
	switch e.Kind {
	case KindUnreachable, KindAuth, KindNotFound, KindNotOpenAI:
		return true
	case KindNoAnswer: // one slow answer of a working endpoint fails only its group
		return !e.answered
	}
	return false
}

// Variable names the setting to fix for a failure that stops the run
// ("" when the failure is not a configuration mistake).
func (e *Error) Variable() string {
	switch e.Kind {
	case KindUnreachable, KindNotOpenAI:
		return "OCR_LLM_URL"
	case KindAuth:
		return "OCR_LLM_TOKEN"
	case KindNotFound:
		if strings.Contains(strings.ToLower(e.Message), "model") {
			return "OCR_LLM_MODEL"
		}
		return "OCR_LLM_URL"
	case KindNoAnswer:
		return "OCR_LLM_TIMEOUT"
	}
	return ""
}

// Hint says what to check.
func (e *Error) Hint() string {
	switch e.Kind {
	case KindUnreachable:
		return "the endpoint could not be reached: check OCR_LLM_URL and that the server is running"
	case KindAuth:
		return "check OCR_LLM_TOKEN and that the key may use this model"
	case KindNotFound:
		if e.Variable() == "OCR_LLM_MODEL" {
			return "check OCR_LLM_MODEL (or --model): the endpoint does not know this model"
		}
		return "check OCR_LLM_URL, which should end in /v1, and OCR_LLM_MODEL"
	case KindNotOpenAI:
		return "the answer is not an OpenAI-compatible JSON response: check OCR_LLM_URL, which should end in /v1"
	case KindNoAnswer:
		return "check that the server at OCR_LLM_URL is up, or raise OCR_LLM_TIMEOUT for slow models"
	}
	if e.Status == http.StatusTooManyRequests {
		return "rate limited: lower --concurrency or raise the provider's quota"
	}
	return ""
}

// classify turns one attempt's error into an *Error. The caller checks its
// own context first: a timeout here is the response timeout, not the
// caller's cancellation.
func classify(err error, a *attempt, red redactor) *Error {
	e := &Error{Err: err, Status: a.status, Kind: KindTransient}
	var apiErr *openai.APIError
	var reqErr *openai.RequestError
	switch {
	case errors.As(err, &apiErr):
		e.Status, e.Message = apiErr.HTTPStatusCode, apiErr.Message
		e.Kind = statusKind(e.Status)
		if apiErr.Param != nil {
			e.param = *apiErr.Param
		}
	case errors.As(err, &reqErr): // an error status whose body is not an OpenAI error
		e.Status, e.Kind = reqErr.HTTPStatusCode, statusKind(reqErr.HTTPStatusCode)
		if a.status == 0 {
			a.status = e.Status
		}
		e.Message = describeBody(a, reqErr.Body, red)
		if e.Kind == KindRejected && !json.Valid(reqErr.Body) {
			e.Kind = KindNotOpenAI // a 400 or 405 page of a web server: the wrong URL
		}
	default:
		e.Kind, e.Message = transportKind(err, a), err.Error()
		if e.Kind == KindNotOpenAI {
			e.Message = describeBody(a, a.head, red)
		}
	}
	if e.Kind == KindRejected {
		e.body = strings.ToLower(string(a.head))
	}
	e.Message = Clip(red.Redact(e.Message), maxMessage)
	e.Retryable = e.Kind == KindTransient
	return e
}

// maxMessage bounds a provider's message in errors, logs and reports.
const maxMessage = 300

// statusKind classifies an HTTP error status.
func statusKind(s int) Kind {
	switch {
	case s == http.StatusUnauthorized || s == http.StatusForbidden:
		return KindAuth
	case s == http.StatusNotFound:
		return KindNotFound
	case s == http.StatusRequestTimeout || s == http.StatusTooManyRequests || s >= 500:
		return KindTransient
	}
	return KindRejected
}

// transportKind classifies an error without an OpenAI error body: a
// network failure, the response timeout, or a 2xx body that did not decode.
func transportKind(err error, a *attempt) Kind {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	var dns *net.DNSError
	var op *net.OpError
	switch {
	case a.status >= 200 && a.status < 300 && (errors.As(err, &syn) || errors.As(err, &typ) || errors.Is(err, errNotCompletion)):
		return KindNotOpenAI
	case errors.As(err, &dns):
		return KindUnreachable
	case errors.As(err, &op) && op.Op == "dial":
		return KindUnreachable
	case a.status == 0 && isTimeout(err):
		return KindNoAnswer
	case errors.Is(err, syscall.ECONNREFUSED):
		return KindUnreachable
	}
	return KindTransient // resets, EOF, a truncated body, a timeout mid-body
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout())
}

// describeBody says what a non-OpenAI answer was: its content type and a
// short, redacted excerpt (the status is in the error already).
func describeBody(a *attempt, body []byte, red redactor) string {
	s := "body"
	if ct := strings.TrimSpace(strings.SplitN(a.contentType, ";", 2)[0]); ct != "" {
		s = ct + " body"
	}
	if ex := red.excerpt(body, 160); ex != "" {
		s += " " + strconv.Quote(ex)
	}
	return s
}
