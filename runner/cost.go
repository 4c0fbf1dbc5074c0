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
