package agent

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/ocr-ci/ocr/internal/infra/llm"
	"github.com/ocr-ci/ocr/review"
)

// errOverContext ends a group whose request the endpoint refused as over
// its context window when shortening old tool outputs cannot help: the
// group is split, or, with one file, not reviewed (too_large).
var errOverContext = errors.New("the endpoint refused the request as longer than its context window, and shortening old tool outputs cannot make it fit")

// window is the run's context window: Config.ContextTokens, lowered to
// what the endpoint says when it refuses a request as too long.
type window struct{ tokens atomic.Int64 }

func newWindow(n int) *window {
	w := &window{}
	w.tokens.Store(int64(n))
	return w
}

func (w *window) size() int { return int(w.tokens.Load()) }

// learn lowers the window to n; false when it was not larger.
func (w *window) learn(n int) bool {
	for {
		cur := w.tokens.Load()
		if int64(n) >= cur {
			return false
		}
		if w.tokens.CompareAndSwap(cur, int64(n)) {
			return true
		}
	}
}

// completionTokens is the max_completion_tokens sent: the configured
// value, at most a quarter of a small window (a 8k local model cannot
// reserve 8,192 tokens for the answer); 0 omits it.
func (r *run) completionTokens() int {
	n := r.a.cfg.MaxCompletionTokens
	if n <= 0 {
		return 0
	}
	return min(n, r.window.size()/4)
}

// promptLimit is the estimated size a conversation must stay under: 80%
// of the window (the estimate is rough) less the tools and the completion.
func (r *run) promptLimit(offered toolSet) int {
	return r.window.size()*8/10 - offered.tokens - r.completionTokens()
}

// overContext reports the window of an over-context refusal and learns it
// for the run, saying so once.
func (r *run) overContext(err error, label string) bool {
	var e *llm.Error
	if !errors.As(err, &e) || !e.OverContext() {
		return false
	}
	if r.window.learn(e.Window) {
		r.progress("%s: the endpoint's context window is %d tokens (from its refusal); requests are kept under it from now on, larger groups are split (set OCR_LLM_CONTEXT=%d to skip the refused request)",
			label, e.Window, e.Window)
	}
	return true
}

// askWithin sends the conversation under the window; a refusal as over the
// window shortens the oldest tool outputs and sends it again once, never
// whole: when nothing can be shortened the group ends (errOverContext).
func (t *task) askWithin(c *conv, offered toolSet, send func() (bool, error)) error {
	for retried := false; ; retried = true {
		if !c.fit(t.run.promptLimit(offered)) {
			return errTooLarge
		}
		before, reserve := c.total, t.run.completionTokens()
		ok, err := send()
		if ok || retried || !t.run.overContext(err, t.label()) {
			return err
		}
		// Sent again only changed: shorter, or asking for a shorter answer
		// that the smaller window leaves room for.
		fits := c.fit(t.run.promptLimit(offered))
		if !fits || (c.total >= before && t.run.completionTokens() >= reserve) {
			return errOverContext
		}
	}
}

// split reviews the halves of a group that did not fit the window, each
// on its own (halved again if need be), and merges their results: the
// files of a half that fails are not reviewed with that half's reason.
func (r *run) split(ctx context.Context, files []File, res groupResult) groupResult {
	if res.reason != review.ReasonTooLarge || len(files) < 2 || ctx.Err() != nil {
		return res
	}
	mid := len(files) / 2
	r.progress("%s does not fit the context window of %d tokens: reviewing it as two groups of %d and %d file(s)",
		files[0].Path+fmt.Sprintf(" (+%d file(s))", len(files)-1), r.window.size(), mid, len(files)-mid)
	out := groupResult{usage: res.usage, files: map[string]fileOutcome{}}
	for _, half := range [][]File{files[:mid], files[mid:]} {
		sub := r.newTask(half).review(ctx)
		sub = r.split(ctx, half, sub)
		out.merge(half, sub)
	}
	return out
}

// fileOutcome is one file's reason after a split ("" reviewed).
type fileOutcome struct {
	reason review.Reason
	detail string
}

// merge adds a half's result to a split group's.
func (g *groupResult) merge(files []File, sub groupResult) {
	g.comments = append(g.comments, sub.comments...)
	g.usage = g.usage.Add(sub.usage)
	g.dropped += sub.dropped
	g.planned = g.planned || sub.planned
	g.rounds = max(g.rounds, sub.rounds)
	for _, f := range files {
		o := fileOutcome{reason: sub.reason, detail: sub.detail}
		if fo, ok := sub.files[f.Path]; ok {
			o = fo
		}
		g.files[f.Path] = o
		if o.reason != "" && g.reason == "" {
			g.reason, g.detail = o.reason, o.detail
		}
	}
}
