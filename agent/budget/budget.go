// Package budget is a run's token budget and cost limit, and the usage of
// one answer as ocr accounts it.
package budget

import (
	"errors"
	"sync"

	openai "github.com/sashabaranov/go-openai"

	"github.com/ocr-ci/ocr/review"
)

// The errors of Reserve: a request that would pass a limit is not sent.
var (
	ErrTokens = errors.New("the run's token budget (--max-tokens-budget) is spent")
	ErrCost   = errors.New("the run's cost limit (--max-cost) is reached")
)

// Budget is the run-wide token budget and cost limit. A request reserves
// its estimated prompt before it is sent and settles with the provider's
// usage, so concurrent groups cannot overrun them by more than their
// completions.
type Budget struct {
	mu       sync.Mutex
	limit    int
	used     int
	reserved int
	// maxCost is the cost limit (0: none) at prices.
	maxCost      float64
	prices       review.Prices
	spentCost    float64
	reservedCost float64
}

// New is a budget of limit tokens (0: none) and maxCost at prices (0: none).
func New(limit int, maxCost float64, prices review.Prices) *Budget {
	return &Budget{limit: limit, maxCost: maxCost, prices: prices}
}

// Reserve books n prompt tokens: ErrTokens or ErrCost when the token
// budget or the cost limit would be exceeded.
func (b *Budget) Reserve(n int) error {
	if b.limit <= 0 && b.maxCost <= 0 {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.limit > 0 && b.used+b.reserved+n > b.limit {
		return ErrTokens
	}
	cost := b.prices.Cost(review.Usage{PromptTokens: n})
	if b.maxCost > 0 && b.spentCost+b.reservedCost+cost > b.maxCost {
		return ErrCost
	}
	b.reserved += n
	b.reservedCost += cost
	return nil
}

// Settle replaces a reservation of n tokens by the reported usage (the
// estimate when the provider reports none).
func (b *Budget) Settle(n int, u review.Usage) {
	if b.limit <= 0 && b.maxCost <= 0 {
		return
	}
	if u.PromptTokens+u.CompletionTokens == 0 {
		u = review.Usage{PromptTokens: n}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.reserved -= n
	b.used += u.PromptTokens + u.CompletionTokens
	b.reservedCost -= b.prices.Cost(review.Usage{PromptTokens: n})
	b.spentCost += b.prices.Cost(u)
}

// UsageOf is a provider's usage as ocr accounts it, cached prompt tokens
// included when the provider reports them. Requests counts the HTTP
// requests sent, retries included (sent, as llm.CountSent counted them);
// a Chatter that does not count (a test double) is one request per call.
func UsageOf(u openai.Usage, sent int64) review.Usage {
	out := review.Usage{Requests: max(int(sent), 1), PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens}
	if u.PromptTokensDetails != nil {
		out.CachedTokens = u.PromptTokensDetails.CachedTokens
	}
	if u.CompletionTokensDetails != nil {
		out.ReasoningTokens = u.CompletionTokensDetails.ReasoningTokens
	}
	return out
}
