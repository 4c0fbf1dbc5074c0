package text

import (
	"fmt"
	"strings"

	"github.com/ocr-ci/ocr/review"
)

// passLines are, for a review of several passes, what the vote kept and
// left out, one line per pass and one for the rest of the run (the filter
// after the vote), so that they add up to the total of the last line.
func (t *Reporter) passLines(b *strings.Builder, r *review.Review) {
	if len(r.Passes) < 2 {
		return
	}
	fmt.Fprintf(b, "%d passes: the vote kept %d finding(s) and left out %d (found by fewer passes than --min-votes)\n",
		len(r.Passes), len(r.Comments), r.Outvoted)
	var sum review.Usage
	for i, p := range r.Passes {
		fmt.Fprintf(b, "  pass %d/%d: %s\n", i+1, len(r.Passes), usageText(p.Usage, p.Cost))
		sum = sum.Add(p.Usage)
	}
	u := r.Usage
	rest := review.Usage{Requests: u.Requests - sum.Requests, PromptTokens: u.PromptTokens - sum.PromptTokens,
		CompletionTokens: u.CompletionTokens - sum.CompletionTokens, CachedTokens: u.CachedTokens - sum.CachedTokens,
		ReasoningTokens: u.ReasoningTokens - sum.ReasoningTokens}
	if rest.Requests > 0 {
		var cost *review.Cost
		if r.Cost != nil {
			cost = review.NewCost(r.Cost.Prices, rest)
		}
		fmt.Fprintf(b, "  after the vote (the filter): %s\n", usageText(rest, cost))
	}
}

// usageText is "2 request(s), 3136 prompt + 80 completion tokens, cost 0.0086".
func usageText(u review.Usage, c *review.Cost) string {
	s := fmt.Sprintf("%d request(s), %s prompt + %s completion tokens%s", u.Requests, review.Thousands(u.PromptTokens), review.Thousands(u.CompletionTokens), u.Breakdown())
	if c != nil {
		s += ", cost " + c.String()
	}
	return s
}
