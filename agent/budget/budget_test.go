package budget

import (
	"errors"
	"testing"

	openai "github.com/sashabaranov/go-openai"

	"github.com/ocr-ci/ocr/review"
)

func TestReserveAndSettle(t *testing.T) {
	b := New(100, 0, review.Prices{})
	if err := b.Reserve(60); err != nil {
		t.Fatal(err)
	}
	if err := b.Reserve(60); !errors.Is(err, ErrTokens) {
		t.Errorf("a reservation past the budget: %v, want ErrTokens", err)
	}
	b.Settle(60, review.Usage{PromptTokens: 20, CompletionTokens: 5})
	if err := b.Reserve(70); err != nil {
		t.Errorf("after settling at 25 tokens, 70 more fit: %v", err)
	}
	c := New(0, 1, review.Prices{Input: 1e6})
	if err := c.Reserve(2); !errors.Is(err, ErrCost) {
		t.Errorf("a reservation past the cost limit: %v, want ErrCost", err)
	}
}

func TestUsageOf(t *testing.T) {
	u := UsageOf(openai.Usage{PromptTokens: 100, CompletionTokens: 40,
		PromptTokensDetails:     &openai.PromptTokensDetails{CachedTokens: 64},
		CompletionTokensDetails: &openai.CompletionTokensDetails{ReasoningTokens: 30}}, 2)
	if u != (review.Usage{Requests: 2, PromptTokens: 100, CompletionTokens: 40, CachedTokens: 64, ReasoningTokens: 30}) {
		t.Errorf("usage %+v", u)
	}
	if UsageOf(openai.Usage{}, 0).Requests != 1 {
		t.Error("a call that did not count its requests is one request")
	}
}
