package runner

import (
	"github.com/ocr-ci/ocr/internal/app/config"
	"github.com/ocr-ci/ocr/review"
)

// pricesOf is the model's prices per million tokens (OCR_PRICE_*).
func pricesOf(cfg *config.Config) review.Prices {
	return review.Prices{Input: cfg.PriceInput, Output: cfg.PriceOutput, CachedInput: cfg.PriceCachedInput}
}

// costLine is the run's cost for the log, "" without prices.
func costLine(rv *review.Review) string {
	if rv.Cost == nil {
		return ""
	}
	return ", cost " + rv.Cost.String()
}

// passCosts is each pass's usage and cost (nil for one pass).
func passCosts(p review.Prices, passes []review.Usage) []review.Pass {
	var out []review.Pass
	for _, u := range passes {
		out = append(out, review.Pass{Usage: u, Cost: review.NewCost(p, u)})
	}
	return out
}

// logPasses writes one line per pass of a review made of several, and
// what the vote left out.
func (c *Command) logPasses(rv *review.Review) {
	for i, p := range rv.Passes {
		cost := ""
		if p.Cost != nil {
			cost = ", cost " + p.Cost.String()
		}
		c.logf("pass %d/%d: %d request(s), %s prompt + %s completion tokens%s", i+1, len(rv.Passes),
			p.Usage.Requests, review.Thousands(p.Usage.PromptTokens), review.Thousands(p.Usage.CompletionTokens), cost)
	}
	if len(rv.Passes) > 0 {
		c.logf("vote: %d finding(s) kept, %d left out (found by fewer passes than --min-votes)",
			len(rv.Comments), rv.Outvoted)
	}
}
