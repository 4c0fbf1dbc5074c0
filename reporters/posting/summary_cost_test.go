package posting

import (
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/review"
)

func TestStickySummaryCost(t *testing.T) {
	r := &review.Review{Status: review.StatusComplete, Usage: review.Usage{Requests: 2, PromptTokens: 1000, CompletionTokens: 100}}
	without := StickySummary(StickyInput{Review: r})
	if strings.Contains(without, "cost") {
		t.Errorf("no prices, yet a cost:\n%s", without)
	}
	r.Cost = &review.Cost{Total: 1.5, Prices: review.Prices{Input: 2, Output: 10}}
	with := StickySummary(StickyInput{Review: r})
	if !strings.Contains(with, "1000 prompt + 100 completion tokens, cost 1.50.</sub>") {
		t.Errorf("the posted summary lacks the cost:\n%s", with)
	}
	// The cost changes on every run, like the usage: it must not make a
	// re-run edit an unchanged summary.
	if !SameSummary(without, with) {
		t.Errorf("the cost makes two summaries of one review differ")
	}
}
