// Package retry is the one retry and backoff helper of ocr's HTTP clients:
// Retry-After parsing (seconds or an HTTP date), capped exponential backoff
// with jitter, a context-aware sleep, and the rate-limiting transport under
// the GitHub and GitLab API clients. Clocks, randomness and sleeping are
// injected, so there is no package-level mutable state.
package retry

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// ParseRetryAfter reads a Retry-After value: delay-seconds or an HTTP-date
// (https://www.rfc-editor.org/rfc/rfc9110#field.retry-after). A date in
// the past means no wait. ok is false for an empty or unreadable value.
func ParseRetryAfter(v string, now time.Time) (d time.Duration, ok bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 {
		return time.Duration(s * float64(time.Second)), true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}

// Backoff is capped exponential backoff with "equal jitter" (half fixed,
// half random), so that parallel callers do not retry in lockstep.
type Backoff struct {
	// Base is the first delay; it doubles per attempt.
	Base time.Duration
	// Cap bounds one delay and one honoured Retry-After.
	Cap time.Duration
	// Rand returns a number in [0, 1); nil means no jitter (the upper bound).
	Rand func() float64
}

// Delay is the backoff before attempt n+1 (n counts from 1), in
// [d/2, d) where d = min(Base·2^(n-1), Cap).
func (b Backoff) Delay(n int) time.Duration {
	d := b.Base
	for i := 1; i < n && d < b.Cap && d > 0; i++ {
		d *= 2 // stops at the cap, so it cannot overflow
	}
	if d > b.Cap || d <= 0 {
		d = b.Cap
	}
	half := d / 2
	r := 1.0
	if b.Rand != nil {
		r = b.Rand()
	}
	return half + time.Duration(r*float64(half))
}

// Next is the wait before attempt n+1: the server's Retry-After when it
// gave a readable one (ok is false when that exceeds Cap: the caller should
// give up rather than wait that long), else Delay(n).
func (b Backoff) Next(n int, retryAfter string, now time.Time) (d time.Duration, ok bool) {
	if d, ok := ParseRetryAfter(retryAfter, now); ok {
		return d, d <= b.Cap
	}
	return b.Delay(n), true
}

// Sleep waits for d or until ctx ends, returning ctx's error then.
func Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
