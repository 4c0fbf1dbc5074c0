package config

import "math"

// validateCost checks the prices and --max-cost: no negative or infinite
// number, and a cost limit only with the prices it is computed at.
func (c *Config) validateCost() error {
	for _, v := range []struct {
		name string
		val  float64
	}{{"--max-cost (OCR_MAX_COST)", c.MaxCost}, {"OCR_PRICE_INPUT", c.PriceInput}, {"OCR_PRICE_OUTPUT", c.PriceOutput},
		{"OCR_PRICE_CACHED_INPUT", c.PriceCachedInput}} {
		if v.val < 0 || math.IsNaN(v.val) || math.IsInf(v.val, 0) {
			return errorf("%s %v: want a price or limit of 0 or more", v.name, v.val)
		}
	}
	if c.MaxCost > 0 && (c.PriceInput == 0 || c.PriceOutput == 0) {
		return errorf("--max-cost (OCR_MAX_COST) needs the model's prices: set OCR_PRICE_INPUT and OCR_PRICE_OUTPUT (per million tokens; ocr does not guess them from the model name)")
	}
	return nil
}
