package agent

import (
	"sync"

	openai "github.com/sashabaranov/go-openai"
)

// budget is the run-wide token budget. A request reserves its estimated
// prompt before it is sent and settles with the provider's usage, so
// concurrent groups cannot overrun it by more than their completions.
type budget struct {
	mu       sync.Mutex
	limit    int
	used     int
	reserved int
}

// reserve books n tokens; false when the budget would be exceeded.
func (b *budget) reserve(n int) bool {
	if b.limit <= 0 {
		return true
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.used+b.reserved+n > b.limit {
		return false
	}
	b.reserved += n
	return true
}

// settle replaces a reservation by the reported usage (the estimate when
// the provider reports none).
func (b *budget) settle(n int, u openai.Usage) {
	if b.limit <= 0 {
		return
	}
	spent := u.PromptTokens + u.CompletionTokens
	if spent == 0 {
		spent = n
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.reserved -= n
	b.used += spent
}
