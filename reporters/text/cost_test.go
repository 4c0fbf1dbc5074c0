package text

import (
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/review"
)

func TestWriteCost(t *testing.T) {
	var b strings.Builder
	writeCost(&b, nil)
	if b.Len() != 0 {
		t.Errorf("no prices, yet %q", b.String())
	}
	writeCost(&b, &review.Cost{Total: 1.5, Prices: review.Prices{Input: 2, Output: 10}})
	if got, want := b.String(), "cost: 1.50 (at 2 input + 10 output per million tokens)\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
