package review

import "testing"

func TestPricesCost(t *testing.T) {
	u := Usage{PromptTokens: 1_000_000, CachedTokens: 400_000, CompletionTokens: 10_000}
	cases := []struct {
		name string
		p    Prices
		want float64
	}{
		{"cached price", Prices{Input: 2, Output: 10, CachedInput: 0.5}, 1.5},
		{"no cached price: input price", Prices{Input: 2, Output: 10}, 2.1},
		{"output only", Prices{Output: 10}, 0.1},
	}
	for _, c := range cases {
		if got := c.p.Cost(u); got < c.want-1e-9 || got > c.want+1e-9 {
			t.Errorf("%s: cost %v, want %v", c.name, got, c.want)
		}
	}
	// A provider that reports more cached tokens than prompt tokens is
	// not trusted beyond the prompt.
	if got := (Prices{Input: 2, CachedInput: 1}).Cost(Usage{PromptTokens: 10, CachedTokens: 50}); got != 10.0/1e6 {
		t.Errorf("cached beyond the prompt: %v", got)
	}
}

// TestReasoningTokensBilled: reasoning tokens are part of the completion
// tokens; a server reporting more of them than completion tokens counts
// them apart, and they are billed as output all the same.
func TestReasoningTokensBilled(t *testing.T) {
	p := Prices{Output: 10}
	if got := p.Cost(Usage{CompletionTokens: 1000, ReasoningTokens: 800}); got != 0.01 {
		t.Errorf("reasoning inside completion: %v, want 0.01", got)
	}
	if got := p.Cost(Usage{CompletionTokens: 100, ReasoningTokens: 1000}); got != 0.01 {
		t.Errorf("reasoning reported apart: %v, want 0.01", got)
	}
	if got := (Usage{CachedTokens: 5, ReasoningTokens: 2}).Breakdown(); got != " (5 of the prompt tokens cached, 2 of the completion tokens reasoning)" {
		t.Errorf("breakdown %q", got)
	}
}

func TestNewCost(t *testing.T) {
	if c := NewCost(Prices{}, Usage{PromptTokens: 5}); c != nil {
		t.Errorf("no prices must show no cost, got %+v", c)
	}
	for total, want := range map[float64]string{0.04213: "0.0421", 1.5: "1.50", 312.499: "312.50", 0: "0.0000"} {
		if got := (&Cost{Total: total}).String(); got != want {
			t.Errorf("%v formats as %q, want %q", total, got, want)
		}
	}
}
