package llm

import (
	"context"
	"errors"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// Options tune the retry loop; the zero value means the defaults.
type Options struct {
	// MaxAttempts bounds HTTP attempts per Chat call (default 5).
	MaxAttempts int
	// BaseDelay is the first backoff (default 500ms); it doubles per attempt.
	BaseDelay time.Duration
	// MaxDelay caps one backoff and one honoured Retry-After (default 60s);
	// a longer Retry-After ends the retries instead of stalling CI.
	MaxDelay time.Duration
	// Logf receives one line per failed attempt; never the token.
	Logf func(format string, args ...any)
	// Sleep waits d or until ctx ends (tests inject a recorder).
	Sleep func(ctx context.Context, d time.Duration) error
	// Now is the clock used to read HTTP-date Retry-After values.
	Now func() time.Time
	// Jitter returns a number in [0,1) (default math/rand/v2).
	Jitter func() float64
	// Transport is the base HTTP transport (default http.DefaultTransport).
	Transport http.RoundTripper
}

// Client sends chat completions with retries. It is safe for concurrent use.
type Client struct {
	api   *openai.Client
	model string
	opt   Options
	token string // redacted from every error and log line
}

// New builds a Client from a validated Config.
func New(cfg Config, opt Options) (*Client, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	opt = opt.withDefaults()
	timeout := time.Duration(cfg.Timeout)
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	hc := &http.Client{Timeout: timeout, Transport: &transport{
		base: opt.Transport, headers: cfg.ExtraHeaders, body: cfg.ExtraBody}}
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
	return &Client{api: openai.NewClientWithConfig(oc), model: cfg.ModelName(), opt: opt, token: cfg.APIToken()}, nil
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
	if o.Logf == nil {
		o.Logf = func(string, ...any) {}
	}
	if o.Sleep == nil {
		o.Sleep = sleep
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Jitter == nil {
		o.Jitter = rand.Float64
	}
	if o.Transport == nil {
		o.Transport = http.DefaultTransport
	}
	return o
}

// Model is the model name sent when a request leaves it empty.
func (c *Client) Model() string { return c.model }

// Chat sends req (Model defaulted), retrying 429, 5xx and network errors with
// exponential backoff and jitter, honouring Retry-After. The response carries
// the provider's usage. Failures are *Error.
func (c *Client) Chat(ctx context.Context, req openai.ChatCompletionRequest) (openai.ChatCompletionResponse, error) {
	if req.Model == "" {
		req.Model = c.model
	}
	for n := 1; ; n++ {
		actx, a := withAttempt(ctx)
		resp, err := c.api.CreateChatCompletion(actx, req)
		if err == nil {
			if n > 1 {
				c.opt.Logf("llm: attempt %d/%d succeeded", n, c.opt.MaxAttempts)
			}
			return resp, nil
		}
		e := classify(err, a)
		e.Attempts = n
		e.Message = redactToken(e.Message, c.token)
		if ctx.Err() != nil {
			e.Retryable, e.Message, e.Err = false, "cancelled: "+ctx.Err().Error(), errors.Join(ctx.Err(), err)
		}
		if !e.Retryable || n >= c.opt.MaxAttempts {
			c.opt.Logf("llm: attempt %d/%d failed (%s); giving up", n, c.opt.MaxAttempts, describe(e))
			return openai.ChatCompletionResponse{}, e
		}
		d, ok := c.delay(n, a.retryAfter)
		if !ok {
			c.opt.Logf("llm: attempt %d/%d failed (%s); Retry-After %q exceeds %s, giving up",
				n, c.opt.MaxAttempts, describe(e), a.retryAfter, c.opt.MaxDelay)
			e.Message += "; the provider asked to wait longer than " + c.opt.MaxDelay.String()
			return openai.ChatCompletionResponse{}, e
		}
		c.opt.Logf("llm: attempt %d/%d failed (%s); retrying in %s", n, c.opt.MaxAttempts, describe(e), d.Round(time.Millisecond))
		if err := c.opt.Sleep(ctx, d); err != nil {
			return openai.ChatCompletionResponse{}, &Error{Status: e.Status, Message: "cancelled while waiting to retry", Attempts: n, Err: err}
		}
	}
}

// redactToken hides the API key in a provider's message: some providers
// and proxies quote the key they were sent ("Incorrect API key provided:
// sk-..."), and the message is printed in the CI log and the review.
func redactToken(msg, token string) string {
	if len(token) < 4 {
		return msg
	}
	return strings.ReplaceAll(msg, token, "***")
}

func describe(e *Error) string {
	if e.Status > 0 {
		return "HTTP " + strconv.Itoa(e.Status) + " " + http.StatusText(e.Status)
	}
	return "network error: " + truncate(e.Message, 120)
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
