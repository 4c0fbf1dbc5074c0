package agent

import (
	"context"
	"sync/atomic"
	"time"
)

// DefaultHeartbeat is how often a progress line is printed while requests
// are in flight: a CI log must not stay silent for minutes.
const DefaultHeartbeat = 15 * time.Second

// meter counts what the heartbeat shows. It is shared by the groups of a run.
type meter struct {
	start    time.Time
	groups   int
	done     atomic.Int64
	inflight atomic.Int64
	tokens   atomic.Int64
}

// request marks one request in flight until the returned func is called
// with its usage.
func (m *meter) request() func(prompt, completion int) {
	m.inflight.Add(1)
	return func(prompt, completion int) {
		m.inflight.Add(-1)
		m.tokens.Add(int64(prompt + completion))
	}
}

// heartbeat prints a progress line every interval while requests are in
// flight, until ctx ends or stop is closed.
func (r *run) heartbeat(ctx context.Context, every time.Duration, stop <-chan struct{}) {
	if every <= 0 {
		return
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-stop:
			return
		case <-t.C:
			if n := r.meter.inflight.Load(); n > 0 {
				r.progress("%d/%d group(s) done, %d request(s) in flight, %s elapsed, %d token(s) so far",
					r.meter.done.Load(), r.meter.groups, n, time.Since(r.meter.start).Round(time.Second), r.meter.tokens.Load())
			}
		}
	}
}
