package llm

import (
	"time"

	"github.com/ocr-ci/ocr/internal/infra/retry"
)

// delay is the wait before attempt n+1: the provider's Retry-After when it
// gave one (false when it exceeds MaxDelay), else exponential backoff from
// BaseDelay with "equal jitter" (half fixed, half random) so that parallel
// groups do not retry in lockstep. The policy is internal/infra/retry's, shared
// with the GitHub and GitLab posters.
func (c *Client) delay(n int, retryAfter string) (time.Duration, bool) {
	b := retry.Backoff{Base: c.opt.BaseDelay, Cap: c.opt.MaxDelay, Rand: c.opt.Jitter}
	return b.Next(n, retryAfter, c.opt.Now())
}

// parseRetryAfter reads delay-seconds or an HTTP-date; see
// retry.ParseRetryAfter.
func parseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	return retry.ParseRetryAfter(v, now)
}
