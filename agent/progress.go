package agent

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/ocr-ci/ocr/review"
)

// DefaultHeartbeat is how often a progress line is printed while requests
// are in flight: a CI log must not stay silent for minutes.
const DefaultHeartbeat = 15 * time.Second

// groupNames is how many paths a group's start line names before "…".
const groupNames = 3

// meter counts what the progress lines show. It is shared by the groups
// of a run.
type meter struct {
	start    time.Time
	groups   int
	done     atomic.Int64
	inflight atomic.Int64
	requests atomic.Int64
	tokens   atomic.Int64
	cached   atomic.Int64
}

// request marks one call in flight until the returned func is called
// with its usage, whose Requests counts the HTTP requests it sent, retries
// included, as the run's usage does.
func (m *meter) request() func(u review.Usage) {
	m.inflight.Add(1)
	return func(u review.Usage) {
		m.inflight.Add(-1)
		m.requests.Add(int64(u.Requests))
		m.tokens.Add(int64(u.PromptTokens + u.CompletionTokens))
		m.cached.Add(int64(u.CachedTokens))
	}
}

// soFar is the run's running count: "4 requests · 12,345 tokens (8,192 cached) so far".
func (m *meter) soFar() string {
	s := plural(int(m.requests.Load()), "request") + " · " + plural(int(m.tokens.Load()), "token")
	if c := m.cached.Load(); c > 0 {
		s += " (" + thousands(int(c)) + " cached)"
	}
	return s + " so far"
}

// status writes a progress line that --quiet leaves out, stamped with the
// time since the run started: "[12s] group 2/5 start: …".
func (r *run) status(format string, args ...any) {
	if r.a.cfg.Quiet {
		return
	}
	r.progress("[%s] "+format, append([]any{seconds(time.Since(r.meter.start))}, args...)...)
}

// groupStart is a group's first line: which files, how many.
func (r *run) groupStart(i, n int, files []File, pass int) {
	names := make([]string, 0, groupNames)
	for _, f := range files[:min(len(files), groupNames)] {
		names = append(names, f.Path)
	}
	list := strings.Join(names, ", ")
	if len(files) > groupNames {
		list += ", …"
	}
	if len(files) > 1 {
		list += fmt.Sprintf(" (%d files)", len(files))
	}
	r.status("group %d/%d%s start: %s", i+1, n, r.passTag(pass), list)
}

// groupEnd is a group's last line: how it ended, in how long, its
// comments, and the run's running count of requests and tokens.
func (r *run) groupEnd(i, n int, res groupResult, took time.Duration, pass int) {
	rounds := r.a.cfg.Rounds
	state := "done"
	if res.reason != "" {
		state = "not reviewed (" + string(res.reason) + ")"
	}
	var notes []string
	if res.planned {
		notes = append(notes, "planned")
	}
	if rounds > 1 {
		notes = append(notes, fmt.Sprintf("%d/%d rounds", res.rounds, rounds))
	}
	if len(notes) > 0 {
		state += " (" + strings.Join(notes, ", ") + ")"
	}
	r.status("group %d/%d%s %s in %s: %s · %s", i+1, n, r.passTag(pass), state, seconds(took), plural(len(res.comments), "comment"), r.meter.soFar())
}

// heartbeat prints a progress line every interval while requests are in
// flight, until ctx ends or stop is closed.
func (r *run) heartbeat(ctx context.Context, every time.Duration, stop <-chan struct{}) {
	if every <= 0 || r.a.cfg.Quiet {
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
				r.status("waiting for %s in flight · %d/%d groups done · %s",
					plural(int(n), "request"), r.meter.done.Load(), r.meter.groups, r.meter.soFar())
			}
		}
	}
}

// seconds prints d rounded to the second: "0s", "28s", "1m5s".
func seconds(d time.Duration) string { return d.Round(time.Second).String() }

// plural is "1 comment", "2 comments", "12,345 tokens".
func plural(n int, noun string) string {
	if n != 1 {
		noun += "s"
	}
	return thousands(n) + " " + noun
}

// thousands is review.Thousands: one number format for token counts.
func thousands(n int) string { return review.Thousands(n) }
