package review

import "strconv"

// Prices are what a model's tokens cost, per million tokens, as the user
// gives them (OCR_PRICE_INPUT, OCR_PRICE_OUTPUT, OCR_PRICE_CACHED_INPUT).
// ocr never guesses prices from model names: without them no cost is
// shown.
type Prices struct {
	Input  float64 `json:"input"`
	Output float64 `json:"output"`
	// CachedInput applies to the prompt tokens the provider reports as
	// cached; zero means they cost Input.
	CachedInput float64 `json:"cached_input,omitempty"`
}

// Set reports whether prices were given.
func (p Prices) Set() bool { return p.Input > 0 || p.Output > 0 }

// Cost returns what u cost at these prices: cached prompt tokens at the
// cached-input price (the input price when it is not given), the other
// prompt tokens at the input price, completion tokens at the output price.
func (p Prices) Cost(u Usage) float64 {
	cachedPrice := p.CachedInput
	if cachedPrice <= 0 {
		cachedPrice = p.Input
	}
	cached := min(u.CachedTokens, u.PromptTokens)
	// Reasoning tokens are part of the completion tokens (OpenAI's and
	// DeepSeek's usage); a server that reports more of them than
	// completion tokens counts them apart, and they are billed all the same.
	output := max(u.CompletionTokens, u.ReasoningTokens)
	return (float64(u.PromptTokens-cached)*p.Input + float64(cached)*cachedPrice + float64(output)*p.Output) / 1e6
}

// Cost is the money a run spent on the model, at the prices given.
type Cost struct {
	// Total is in the currency of the prices.
	Total  float64 `json:"total"`
	Prices Prices  `json:"prices_per_million_tokens"`
}

// NewCost prices u; nil when no prices are set (no cost is shown).
func NewCost(p Prices, u Usage) *Cost {
	if !p.Set() {
		return nil
	}
	return &Cost{Total: p.Cost(u), Prices: p}
}

// String formats the total in the currency of the prices, with enough
// digits to see the cost of a cheap run: 0.0421, 1.27, 312.50.
func (c *Cost) String() string {
	if c.Total >= 1 {
		return strconv.FormatFloat(c.Total, 'f', 2, 64)
	}
	return strconv.FormatFloat(c.Total, 'f', 4, 64)
}
