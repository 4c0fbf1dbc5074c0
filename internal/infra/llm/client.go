package llm

import (
	"context"
	"errors"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ocr-ci/ocr/internal/infra/retry"
	openai "github.com/sashabaranov/go-openai"
)

// Defaults of the HTTP timeouts.
const (
	// DefaultConnectTimeout bounds opening a connection (dial and TLS).
	DefaultConnectTimeout = 10 * time.Second
	// DefaultResponseTimeout bounds one whole answer when neither
	// Options.ResponseTimeout nor OCR_LLM_TIMEOUT is set: a hung endpoint
	// fails a small review within two minutes.
	DefaultResponseTimeout = 110 * time.Second
)

// Options tune the client; the zero value means the defaults.
type Options struct {
	// MaxAttempts bounds HTTP attempts per Chat call (default 5).
	MaxAttempts int
	// BaseDelay is the first backoff (default 500ms); it doubles per attempt.
	BaseDelay time.Duration
	// MaxDelay caps one backoff and one honoured Retry-After (default 60s);
	// a longer Retry-After ends the retries instead of stalling CI.
	MaxDelay time.Duration
	// ConnectTimeout bounds dialling and the TLS handshake (default 10s).
	ConnectTimeout time.Duration
	// ResponseTimeout bounds one attempt, from sending the request to the
	// end of the answer (default: Config.Timeout, else DefaultResponseTimeout).
	ResponseTimeout time.Duration
	// Logf receives at most one line per scope (WithScope) and failure
	// kind; never a secret.
	Logf func(format string, args ...any)
	// Sleep waits d or until ctx ends (tests inject a recorder).
	Sleep func(ctx context.Context, d time.Duration) error
	// Now is the clock used to read HTTP-date Retry-After values.
	Now func() time.Time
	// Jitter returns a number in [0,1) (default math/rand/v2).
	Jitter func() float64
	// Transport is the base HTTP transport (default: http.DefaultTransport's
	// settings with ConnectTimeout).
	Transport http.RoundTripper
}

// Client sends chat completions with retries. It is safe for concurrent use.
type Client struct {
	api   *openai.Client
	model string
	// temperature and seed are sent with every request (sampling).
	temperature Temperature
	seed        int
	opt         Options
	red         redactor // applied to every error and log line before any cut
	wait        time.Duration

	answered atomic.Bool // the endpoint has sent at least one response
	logged   sync.Map    // scope + failure kind → already logged
	mode     string      // OCR_LLM_TOOLS
	adapt    *adaptations
}

// New builds a Client from a validated Config.
func New(cfg Config, opt Options) (*Client, error) {
	cfg = cfg.Resolved()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	opt = opt.withDefaults()
	timeout := opt.ResponseTimeout
	if timeout <= 0 {
		timeout = time.Duration(cfg.Timeout)
	}
	if timeout <= 0 {
		timeout = DefaultResponseTimeout
	}
	ad := newAdaptations(cfg.ToolMode())
	hc := &http.Client{Timeout: timeout, Transport: &transport{
		base: opt.Transport, headers: cfg.ExtraHeaders, body: cfg.ExtraBody, adapt: ad}}
	oc := openai.DefaultConfig(cfg.APIToken())
	if cfg.AzureDeployment != "" {
		oc = openai.DefaultAzureConfig(cfg.APIToken(), cfg.BaseURL())
		oc.APIVersion = DefaultAzureAPIVersion
		if cfg.AzureAPIVersion != "" {
			oc.APIVersion = cfg.AzureAPIVersion
		}
		dep := cfg.AzureDeployment
		oc.AzureModelMapperFunc = func(string) string { return dep }
	}
	oc.BaseURL = cfg.BaseURL()
	oc.HTTPClient = hc
	seed := DefaultSeed
	if cfg.Seed != nil {
		seed = *cfg.Seed
	}
	return &Client{api: openai.NewClientWithConfig(oc), model: cfg.ModelName(), opt: opt, red: newRedactor(cfg),
		wait: timeout, temperature: cfg.Temperature, seed: seed, mode: cfg.ToolMode(), adapt: ad}, nil
}

func (o Options) withDefaults() Options {
	if o.MaxAttempts <= 0 {
		o.MaxAttempts = 5
	}
	if o.BaseDelay <= 0 {
		o.BaseDelay = 500 * time.Millisecond
	}
	if o.MaxDelay <= 0 {
		o.MaxDelay = 60 * time.Second
	}
	if o.ConnectTimeout <= 0 {
		o.ConnectTimeout = DefaultConnectTimeout
	}
	if o.Logf == nil {
		o.Logf = func(string, ...any) {}
	}
	if o.Sleep == nil {
		o.Sleep = retry.Sleep
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Jitter == nil {
		o.Jitter = rand.Float64
	}
	if o.Transport == nil {
		o.Transport = baseTransport(o.ConnectTimeout)
	}
	return o
}

// baseTransport is http.DefaultTransport with the connect timeout.
func baseTransport(connect time.Duration) http.RoundTripper {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.DialContext = (&net.Dialer{Timeout: connect, KeepAlive: 30 * time.Second}).DialContext
	t.TLSHandshakeTimeout = connect
	return t
}

// Model is the model name sent when a request leaves it empty.
func (c *Client) Model() string { return c.model }

// send sends req as it is, retrying transient failures. The response
// carries the provider's usage.
func (c *Client) send(ctx context.Context, req openai.ChatCompletionRequest) (openai.ChatCompletionResponse, error) {
	for n := 1; ; n++ {
		actx, a := withAttempt(ctx)
		resp, err := c.api.CreateChatCompletion(actx, req)
		if a.sent {
			countSent(ctx)
		}
		if a.status > 0 {
			c.answered.Store(true)
		}
		if err == nil && notCompletion(resp) {
			err = errNotCompletion
		}
		if err == nil {
			return resp, nil
		}
		e := c.failure(ctx, err, a, n)
		if !e.Retryable || n >= c.opt.MaxAttempts {
			return openai.ChatCompletionResponse{}, e
		}
		d, ok := c.delay(n, a.retryAfter)
		if !ok {
			e.Message += "; the provider asked to wait longer than " + c.opt.MaxDelay.String()
			return openai.ChatCompletionResponse{}, e
		}
		c.logRetry(ctx, e, n, d)
		if err := c.opt.Sleep(ctx, d); err != nil {
			return openai.ChatCompletionResponse{}, &Error{Kind: KindCancelled, Status: e.Status,
				Message: "cancelled while waiting to retry", Attempts: n, Err: err}
		}
	}
}

// errNotCompletion is a 2xx JSON answer that is not a chat completion
// (a health check's {"status":"ok"}, another API's object).
var errNotCompletion = errors.New("the JSON answer is not a chat completion")

// notCompletion reports whether a decoded answer lacks everything a chat
// completion has: no id, no object type, no choices.
func notCompletion(r openai.ChatCompletionResponse) bool {
	return r.ID == "" && r.Object == "" && len(r.Choices) == 0
}

// failure classifies attempt n's error. A refused connection is not a
// configuration mistake once the endpoint has answered in this run (a
// restart, a load balancer's blip): it is retried like a reset.
func (c *Client) failure(ctx context.Context, err error, a *attempt, n int) *Error {
	if ctx.Err() != nil {
		return &Error{Kind: KindCancelled, Status: a.status, Attempts: n, Message: "cancelled: " + ctx.Err().Error(),
			Err: errors.Join(ctx.Err(), err)}
	}
	e := classify(err, a, c.red)
	e.Attempts, e.answered = n, c.answered.Load()
	switch {
	case e.Kind == KindUnreachable && e.answered:
		e.Kind, e.Retryable = KindTransient, true
	case e.Kind == KindNoAnswer:
		e.Message = "the endpoint did not answer within " + c.wait.String()
	}
	return e
}

// logRetry logs a retry once per scope and failure kind: a provider that
// keeps failing must not flood the CI log.
func (c *Client) logRetry(ctx context.Context, e *Error, n int, d time.Duration) {
	sc := scope(ctx)
	key := sc + "\x00" + e.Kind.String() + strconv.Itoa(e.Status)
	if _, seen := c.logged.LoadOrStore(key, true); seen {
		return
	}
	who := ""
	if sc != "" {
		who = sc + ": "
	}
	c.opt.Logf("llm: %sattempt %d/%d failed (%s); retrying in %s (up to %d attempts; further failures like this are not logged)",
		who, n, c.opt.MaxAttempts, describe(e), d.Round(time.Millisecond), c.opt.MaxAttempts)
}

type sentKey struct{}

// CountSent returns a context under which Chat adds to n every HTTP
// request it sends, retries included: a call that met four 503s and then
// an answer adds 5.
func CountSent(ctx context.Context, n *atomic.Int64) context.Context {
	return context.WithValue(ctx, sentKey{}, n)
}

func countSent(ctx context.Context) {
	if n, ok := ctx.Value(sentKey{}).(*atomic.Int64); ok {
		n.Add(1)
	}
}

type scopeKey struct{}

// WithScope names the caller's unit of work (a review group) in log lines;
// retries are logged at most once per scope and failure kind.
func WithScope(ctx context.Context, name string) context.Context {
	return context.WithValue(ctx, scopeKey{}, name)
}

// scope is the name given by WithScope, or "".
func scope(ctx context.Context) string {
	s, _ := ctx.Value(scopeKey{}).(string)
	return s
}

func describe(e *Error) string {
	if e.Status > 0 {
		return "HTTP " + strconv.Itoa(e.Status) + " " + http.StatusText(e.Status)
	}
	return "network error: " + Clip(e.Message, 120)
}
