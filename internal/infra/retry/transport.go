package retry

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Transport is the http.RoundTripper under the GitHub and GitLab API
// clients. It owns rate
// limiting so the clients never do it themselves:
//   - writes (non-GET) run at most `writes` at a time (1 on GitHub);
//   - a 429, or a 403 that is a rate limit (retry-after, remaining 0,
//     "secondary rate limit"), means the request was not processed, so it
//     is retried after retry-after / until the reset, at most maxRetries
//     times and never longer than maxWait;
//   - after a response with remaining 0 the next request waits for reset.
//
// Other failures are returned as they are: a review POST that failed with a
// 5xx may have been applied, and only the caller can reconcile that.
//
// https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api
// https://docs.gitlab.com/user/gitlab_com/#gitlabcom-specific-rate-limits
type Transport struct {
	base       http.RoundTripper
	sleep      func(ctx context.Context, d time.Duration) error
	now        func() time.Time
	logf       func(format string, args ...any)
	writeSlots chan struct{}
	maxRetries int
	maxWait    time.Duration
	writeGap   time.Duration

	mu        sync.Mutex
	notBefore time.Time
	lastWrite time.Time

	reads, writes atomic.Int64
}

// Options configures a Transport; the zero value works.
type Options struct {
	// Writes is how many non-GET requests may run at once (at least 1).
	Writes int
	// WriteGap spaces writes apart (GitHub asks for a second between
	// content-creating requests).
	WriteGap time.Duration
	// Sleep waits; default Sleep. Now reads the clock; default time.Now.
	Sleep func(ctx context.Context, d time.Duration) error
	Now   func() time.Time
	// Logf reports waits; default silent.
	Logf func(format string, args ...any)
}

// NewTransport returns a Transport sending through base
// (http.DefaultTransport when nil).
func NewTransport(base http.RoundTripper, o Options) *Transport {
	if base == nil {
		base = http.DefaultTransport
	}
	if o.Sleep == nil {
		o.Sleep = Sleep
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Logf == nil {
		o.Logf = func(string, ...any) {}
	}
	return &Transport{base: base, sleep: o.Sleep, now: o.Now, logf: o.Logf, writeGap: o.WriteGap,
		writeSlots: make(chan struct{}, max(1, o.Writes)), maxRetries: 3, maxWait: 15 * time.Minute}
}

// Base is what a Transport sends through: hc's transport and
// timeout, or http.DefaultTransport and a minute when hc leaves them out.
func Base(hc *http.Client) (http.RoundTripper, time.Duration) {
	base, timeout := http.DefaultTransport, 60*time.Second
	if hc != nil {
		if hc.Transport != nil {
			base = hc.Transport
		}
		timeout = hc.Timeout
	}
	return base, timeout
}

// RoundTrip sends req, waiting out rate limits.
func (l *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method != http.MethodGet && req.Method != http.MethodHead {
		select {
		case l.writeSlots <- struct{}{}:
		case <-req.Context().Done():
			return nil, req.Context().Err()
		}
		defer func() { <-l.writeSlots }()
		if err := l.spaceWrites(req.Context()); err != nil {
			return nil, err
		}
	}
	for attempt := 0; ; attempt++ {
		if err := l.waitTurn(req.Context()); err != nil {
			return nil, err
		}
		resp, err := l.send(req)
		if err != nil {
			return nil, err
		}
		wait, limited := l.retryAfter(resp)
		if !limited || attempt >= l.maxRetries || wait > l.maxWait {
			l.noteRemaining(resp)
			return resp, nil
		}
		drain(resp)
		l.logf("ocr: rate limited by %s (HTTP %d); waiting %s before retrying", req.URL.Host, resp.StatusCode, wait.Round(time.Second))
		if err := l.sleep(req.Context(), wait); err != nil {
			return nil, err
		}
	}
}

func (l *Transport) send(req *http.Request) (*http.Response, error) {
	r := req.Clone(req.Context())
	if req.GetBody != nil {
		body, err := req.GetBody()
		if err != nil {
			return nil, err
		}
		r.Body = body
	}
	if req.Method == http.MethodGet {
		l.reads.Add(1)
	} else {
		l.writes.Add(1)
	}
	return l.base.RoundTrip(r)
}

// spaceWrites waits until writeGap has passed since the last write.
func (l *Transport) spaceWrites(ctx context.Context) error {
	if l.writeGap <= 0 {
		return nil
	}
	l.mu.Lock()
	d := l.lastWrite.Add(l.writeGap).Sub(l.now())
	l.mu.Unlock()
	if d > 0 {
		if err := l.sleep(ctx, d); err != nil {
			return err
		}
	}
	l.mu.Lock()
	l.lastWrite = l.now()
	l.mu.Unlock()
	return nil
}

func (l *Transport) waitTurn(ctx context.Context) error {
	l.mu.Lock()
	d := l.notBefore.Sub(l.now())
	l.notBefore = time.Time{}
	l.mu.Unlock()
	if d <= 0 {
		return nil
	}
	return l.sleep(ctx, min(d, l.maxWait))
}

// retryAfter says whether resp is a rate limit and how long to wait.
func (l *Transport) retryAfter(resp *http.Response) (time.Duration, bool) {
	if resp.StatusCode != http.StatusTooManyRequests && resp.StatusCode != http.StatusForbidden {
		return 0, false
	}
	h := resp.Header
	if d, ok := ParseRetryAfter(h.Get("Retry-After"), l.now()); ok {
		return d, true
	}
	if rateRemaining(h) == "0" {
		if reset, ok := rateReset(h); ok {
			return max(reset.Sub(l.now()), time.Second), true
		}
	}
	if resp.StatusCode == http.StatusTooManyRequests || isSecondaryLimit(resp) {
		return time.Minute, true
	}
	return 0, false
}

// noteRemaining makes the next request wait for the reset when this
// response used the last request of the window, and removes the headers
// so the client above does not refuse requests on its own clock.
func (l *Transport) noteRemaining(resp *http.Response) {
	if rateRemaining(resp.Header) != "0" {
		return
	}
	if reset, ok := rateReset(resp.Header); ok {
		l.mu.Lock()
		l.notBefore = reset
		l.mu.Unlock()
	}
	for _, k := range []string{"X-Ratelimit-Remaining", "X-Ratelimit-Reset", "Ratelimit-Remaining", "Ratelimit-Reset"} {
		resp.Header.Del(k)
	}
}

func rateRemaining(h http.Header) string {
	if v := h.Get("X-Ratelimit-Remaining"); v != "" {
		return v
	}
	return h.Get("Ratelimit-Remaining")
}

func rateReset(h http.Header) (time.Time, bool) {
	v := h.Get("X-Ratelimit-Reset")
	if v == "" {
		v = h.Get("Ratelimit-Reset")
	}
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	if err != nil || n <= 0 {
		return time.Time{}, false
	}
	return time.Unix(n, 0), true
}

// isSecondaryLimit peeks at a 403's body for GitHub's secondary-limit text
// and puts the body back.
func isSecondaryLimit(resp *http.Response) bool {
	if resp.StatusCode != http.StatusForbidden || resp.Body == nil {
		return false
	}
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	_ = resp.Body.Close() // the body read is all there is to keep

	resp.Body = io.NopCloser(bytes.NewReader(b))
	s := strings.ToLower(string(b))
	return strings.Contains(s, "secondary rate limit") || strings.Contains(s, "abuse detection")
}

// drain reads (a bounded part of) a response that will not be used and
// closes it, so the connection can be reused. A failure only costs that
// connection, so errors are dropped.
func drain(resp *http.Response) {
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	_ = resp.Body.Close()
}

// Calls returns the number of read and write requests sent so far,
// retries included.
func (l *Transport) Calls() (reads, writes int) {
	return int(l.reads.Load()), int(l.writes.Load())
}
