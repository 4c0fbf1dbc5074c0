package text

import (
	"fmt"

	"github.com/ocr-ci/ocr/review"
)

// costText is the run's cost for the closing line: "$0.42 (at 2.5 input +
// 10 output per million tokens)".
func costText(c *review.Cost) string {
	return fmt.Sprintf("%s (at %g input + %g output per million tokens)", c.String(), c.Prices.Input, c.Prices.Output)
}
