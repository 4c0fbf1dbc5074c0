// Package window is a run's context window: the configured size, lowered
// to what the endpoint reports when it refuses a request as too long, and
// what a request may hold under it.
package window

import (
	"errors"
	"sync/atomic"

	"github.com/ocr-ci/ocr/internal/infra/llm"
)

// Window is safe for concurrent use.
type Window struct{ tokens atomic.Int64 }

// New is a window of n tokens.
func New(n int) *Window {
	w := &Window{}
	w.tokens.Store(int64(n))
	return w
}

// Size is the window in tokens.
func (w *Window) Size() int { return int(w.tokens.Load()) }

// Learn lowers the window to n; false when it was not larger.
func (w *Window) Learn(n int) bool {
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

// Completion is the max_completion_tokens to send: maxTokens, at most a
// quarter of a small window (an 8k local model cannot reserve 8,192 tokens
// for the answer); 0 (omitted) when maxTokens is not positive.
func (w *Window) Completion(maxTokens int) int {
	if maxTokens <= 0 {
		return 0
	}
	return min(maxTokens, w.Size()/4)
}

// PromptLimit is the estimated size a conversation must stay under: 80% of
// the window (the estimate is rough) less the tools and the completion.
func (w *Window) PromptLimit(tools, maxTokens int) int {
	return w.Size()*8/10 - tools - w.Completion(maxTokens)
}

// Refused is the window an over-context refusal in err reports.
func Refused(err error) (int, bool) {
	var e *llm.Error
	if !errors.As(err, &e) || !e.OverContext() {
		return 0, false
	}
	return e.Window, true
}
