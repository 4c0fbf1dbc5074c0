package posting

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

// limiter is the http.RoundTripper under both API clients. It owns rate
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
type limiter struct {
	base       http.RoundTripper
	sleep      func(ctx context.Context, d time.Duration) error
	now        func() time.Time
	logf       func(format string, args ...any)
	writeSlots chan struct{}
	maxRetries int
	maxWait    time.Duration

	// WriteGap spaces writes apart (GitHub asks for a second between
	// content-creating requests).
	WriteGap time.Duration

	mu        sync.Mutex
	notBefore time.Time
	lastWrite time.Time

	reads, writes atomic.Int64
}

func NewLimiter(base http.RoundTripper, writes int, sleep func(context.Context, time.Duration) error, logf func(string, ...any)) *limiter {
	if base == nil {
		base = http.DefaultTransport
	}
	if sleep == nil {
		sleep = postSleep
	}
	return &limiter{base: base, sleep: sleep, now: time.Now, logf: logf,
		writeSlots: make(chan struct{}, max(1, writes)), maxRetries: 3, maxWait: 15 * time.Minute}
}

// BaseTransport is what a limiter sends through: hc's transport and
// timeout, or http.DefaultTransport and a minute when hc leaves them out.
func BaseTransport(hc *http.Client) (http.RoundTripper, time.Duration) {
	base, timeout := http.DefaultTransport, 60*time.Second
	if hc != nil {
		if hc.Transport != nil {
			base = hc.Transport
		}
		timeout = hc.Timeout
	}
	return base, timeout
}

func postSleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// RoundTrip sends req, waiting out rate limits.
func (l *limiter) RoundTrip(req *http.Request) (*http.Response, error) {
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
		postDrain(resp)
		l.logf("ocr: rate limited by %s (HTTP %d); waiting %s before retrying", req.URL.Host, resp.StatusCode, wait.Round(time.Second))
		if err := l.sleep(req.Context(), wait); err != nil {
			return nil, err
		}
	}
}

func (l *limiter) send(req *http.Request) (*http.Response, error) {
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

// spaceWrites waits until WriteGap has passed since the last write.
func (l *limiter) spaceWrites(ctx context.Context) error {
	if l.WriteGap <= 0 {
		return nil
	}
	l.mu.Lock()
	d := l.lastWrite.Add(l.WriteGap).Sub(l.now())
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

func (l *limiter) waitTurn(ctx context.Context) error {
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
func (l *limiter) retryAfter(resp *http.Response) (time.Duration, bool) {
	if resp.StatusCode != http.StatusTooManyRequests && resp.StatusCode != http.StatusForbidden {
		return 0, false
	}
	h := resp.Header
	if s := h.Get("Retry-After"); s != "" {
		if n, err := strconv.Atoi(strings.TrimSpace(s)); err == nil {
			return time.Duration(n) * time.Second, true
		}
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
func (l *limiter) noteRemaining(resp *http.Response) {
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
	resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(b))
	s := strings.ToLower(string(b))
	return strings.Contains(s, "secondary rate limit") || strings.Contains(s, "abuse detection")
}

func postDrain(resp *http.Response) {
	io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
}

// Calls returns the number of read and write requests sent so far,
// retries included.
func (l *limiter) Calls() (reads, writes int) {
	return int(l.reads.Load()), int(l.writes.Load())
}
