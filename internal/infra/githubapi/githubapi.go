// Package githubapi is the one constructor of ocr's GitHub REST clients:
// an http.Client with a timeout, sending through the shared rate-limiting
// transport (internal/infra/retry), authenticated with a token, against
// api.github.com or a GitHub Enterprise Server API URL (GITHUB_API_URL).
package githubapi

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/google/go-github/v62/github"

	"github.com/ocr-ci/ocr/internal/infra/retry"
)

// DefaultTimeout bounds one HTTP request when the caller gives no client.
const DefaultTimeout = 60 * time.Second

type options struct {
	hc       *http.Client
	retry    retry.Options
	writeGap bool
}

// Option configures New.
type Option func(*options)

// WithHTTPClient sends through hc's transport and uses its timeout (tests
// pass a fake server's client); a zero timeout keeps DefaultTimeout.
func WithHTTPClient(hc *http.Client) Option { return func(o *options) { o.hc = hc } }

// WithSleep injects the sleep used while waiting out rate limits.
func WithSleep(sleep func(context.Context, time.Duration) error) Option {
	return func(o *options) { o.retry.Sleep = sleep }
}

// WithLogf reports rate-limit waits.
func WithLogf(logf func(format string, args ...any)) Option {
	return func(o *options) { o.retry.Logf = logf }
}

// WithWriteGap spaces content-creating requests a second apart, as GitHub
// asks of clients that post comments.
func WithWriteGap() Option { return func(o *options) { o.writeGap = true } }

// New returns a go-github client for token (none when empty) and baseURL
// ("" for api.github.com; a GHES URL such as https://ghe.example/api/v3).
// Writes run one at a time.
func New(token, baseURL string, opts ...Option) (*github.Client, error) {
	o := options{retry: retry.Options{Writes: 1}}
	for _, opt := range opts {
		opt(&o)
	}
	if o.writeGap {
		o.retry.WriteGap = time.Second
	}
	base, timeout := retry.Base(o.hc)
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	c := github.NewClient(&http.Client{Transport: retry.NewTransport(base, o.retry), Timeout: timeout})
	if token != "" {
		c = c.WithAuthToken(token)
	}
	if baseURL != "" {
		u, err := url.Parse(strings.TrimSuffix(baseURL, "/") + "/")
		if err == nil && (u.Scheme == "" || u.Host == "") {
			err = errors.New("no scheme or host")
		}
		if err != nil {
			return nil, fmt.Errorf("invalid GitHub API URL %q (check GITHUB_API_URL; e.g. https://ghe.example/api/v3): %w", baseURL, err)
		}
		c.BaseURL = u
	}
	return c, nil
}
