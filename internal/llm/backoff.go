package llm

import (
	"net/http"
	"strconv"
	"strings"
	"time"
)

// delay is the wait before attempt n+1: the provider's Retry-After when it
// gave one (false when it exceeds MaxDelay), else exponential backoff from
// BaseDelay with "equal jitter" (half fixed, half random) so that parallel
// groups do not retry in lockstep.
func (c *Client) delay(n int, retryAfter string) (time.Duration, bool) {
	if d, ok := parseRetryAfter(retryAfter, c.opt.Now()); ok {
		return d, d <= c.opt.MaxDelay
	}
	d := c.opt.BaseDelay << (n - 1)
	if d > c.opt.MaxDelay || d <= 0 {
		d = c.opt.MaxDelay
	}
	half := d / 2
	return half + time.Duration(c.opt.Jitter()*float64(half)), true
}

// parseRetryAfter reads delay-seconds or an HTTP-date
// (https://www.rfc-editor.org/rfc/rfc9110#field.retry-after).
func parseRetryAfter(v string, now time.Time) (time.Duration, bool) {
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
