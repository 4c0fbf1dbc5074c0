package text

import (
	"fmt"
	"strings"

	"github.com/ocr-ci/ocr/review"
)

// writeCost adds the run's cost line; nothing without prices.
func writeCost(b *strings.Builder, c *review.Cost) {
	if c == nil {
		return
	}
	fmt.Fprintf(b, "cost: %s (at %g input + %g output per million tokens)\n", c.String(), c.Prices.Input, c.Prices.Output)
}
