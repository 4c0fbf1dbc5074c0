// Package gitlabapi is the one place ocr talks to GitLab: the client
// (token, API URL, CA file, the rate-limiting transport of
// internal/infra/retry), who the token is, the paginated listing of a
// merge request's discussions, the one tolerant decoder of GitLab's
// number-or-string fields (Int) and of notes, and errors that keep
// GitLab's own message.
package gitlabapi

import (
	"cmp"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net/http"
	"os"
	"time"

	gitlab "gitlab.com/gitlab-org/api/client-go"

	"github.com/ocr-ci/ocr/internal/infra/readonce"
	"github.com/ocr-ci/ocr/internal/infra/retry"
)

// Config is what a client needs.
type Config struct {
	// BaseURL is the API root (CI_API_V4_URL); "" means gitlab.com's.
	BaseURL string
	// Token is a project or group access token; never logged.
	Token string
	// CAFile is a PEM bundle trusted besides the system roots
	// (CI_SERVER_TLS_CA_FILE).
	CAFile string
	// HTTPClient sends the requests (tests: the fake's); nil: a default one.
	HTTPClient *http.Client
	// Writes bounds simultaneous writes (0: DefaultWrites).
	Writes int
	// Sleep waits between rate-limited retries; nil uses a real timer.
	Sleep func(ctx context.Context, d time.Duration) error
	// Logf receives notices of rate-limit waits; nil discards them.
	Logf func(format string, args ...any)
}

// DefaultTimeout bounds one HTTP request when the caller's client has none.
const DefaultTimeout = 60 * time.Second

// DefaultWrites is how many writes run at once by default.
const DefaultWrites = 4

// noWait disables client-go's own limiter: the retry transport below it
// honours 429 and RateLimit-* instead.
type noWait struct{}

// Wait never waits.
func (noWait) Wait(context.Context) error { return nil }

// New returns a client-go client for c; nothing is sent.
func New(c Config) (*gitlab.Client, error) {
	base, timeout, err := transport(c.HTTPClient, c.CAFile)
	if err != nil {
		return nil, err
	}
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	lim := retry.NewTransport(base, retry.Options{Writes: cmp.Or(c.Writes, DefaultWrites), Sleep: c.Sleep, Logf: c.Logf})
	opts := []gitlab.ClientOptionFunc{gitlab.WithHTTPClient(&http.Client{Transport: lim, Timeout: timeout}),
		gitlab.WithoutRetries(), gitlab.WithCustomLimiter(noWait{})}
	if c.BaseURL != "" {
		opts = append(opts, gitlab.WithBaseURL(c.BaseURL))
	}
	cl, err := gitlab.NewClient(c.Token, opts...)
	if err != nil {
		return nil, fmt.Errorf("could not set up the GitLab client (check CI_API_V4_URL): %w", err)
	}
	return cl, nil
}

// transport is the base transport of hc, trusting caFile when one is
// given; under a run's readonce memory, the transport beneath it is the
// one configured.
func transport(hc *http.Client, caFile string) (http.RoundTripper, time.Duration, error) {
	base, timeout := retry.Base(hc)
	if caFile == "" {
		return base, timeout, nil
	}
	if ro, ok := base.(*readonce.Transport); ok {
		t, err := withCA(cmp.Or[http.RoundTripper](ro.Next, http.DefaultTransport), caFile)
		return ro.On(t), timeout, err
	}
	t, err := withCA(base, caFile)
	return t, timeout, err
}

// withCA is base trusting the certificates of caFile besides the system's.
func withCA(base http.RoundTripper, caFile string) (http.RoundTripper, error) {
	pem, err := os.ReadFile(caFile)
	if err != nil {
		return nil, fmt.Errorf("could not read the CA file %q (CI_SERVER_TLS_CA_FILE): %w", caFile, err)
	}
	pool, err := x509.SystemCertPool()
	if err != nil || pool == nil {
		pool = x509.NewCertPool()
	}
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("the CA file %q holds no PEM certificate", caFile)
	}
	t, ok := base.(*http.Transport)
	if !ok {
		return nil, errors.New("a CA file needs an *http.Transport to configure")
	}
	t = t.Clone()
	if t.TLSClientConfig == nil {
		t.TLSClientConfig = &tls.Config{MinVersion: tls.VersionTLS12}
	}
	t.TLSClientConfig.RootCAs = pool
	return t, nil
}
