package github

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/review"
)

func TestStepSummaryCost(t *testing.T) {
	r := &review.Review{Status: review.StatusComplete, Usage: review.Usage{Requests: 2, PromptTokens: 1000, CompletionTokens: 100}}
	var without, with bytes.Buffer
	if err := (&Summary{W: &without}).Report(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	r.Cost = &review.Cost{Total: 0.04213, Prices: review.Prices{Input: 2, Output: 10}}
	if err := (&Summary{W: &with}).Report(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(without.String(), "cost") {
		t.Errorf("no prices, yet a cost:\n%s", without.String())
	}
	if !strings.Contains(with.String(), "100 completion tokens · cost 0.0421") {
		t.Errorf("the step summary lacks the cost:\n%s", with.String())
	}
}

// TestStepSummaryCachedAndReasoning: the usage line shows the cached and
// reasoning tokens the provider reported, and only those.
func TestStepSummaryCachedAndReasoning(t *testing.T) {
	for _, tc := range []struct {
		u    review.Usage
		want string
	}{
		{review.Usage{Requests: 2, PromptTokens: 3000, CompletionTokens: 100}, "100 completion tokens\n"},
		{review.Usage{Requests: 2, PromptTokens: 3000, CompletionTokens: 100, CachedTokens: 2048, ReasoningTokens: 60}, "100 completion tokens · 2048 cached · 60 reasoning\n"},
	} {
		var b bytes.Buffer
		if err := (&Summary{W: &b}).Report(context.Background(), &review.Review{Status: review.StatusComplete, Usage: tc.u}); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), tc.want) {
			t.Errorf("usage line lacks %q:\n%s", tc.want, b.String())
		}
	}
}
