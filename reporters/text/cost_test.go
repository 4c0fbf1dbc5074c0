package text

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/review"
)

func TestCostText(t *testing.T) {
	got := costText(&review.Cost{Total: 1.5, Prices: review.Prices{Input: 2, Output: 10}})
	if want := "1.50 (at 2 input + 10 output per million tokens)"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// The closing line carries the cost when prices were given, and nothing
// about cost when they were not.
func TestReportShowsCostOnlyWithPrices(t *testing.T) {
	for _, tc := range []struct {
		cost *review.Cost
		want bool
	}{{nil, false}, {&review.Cost{Total: 0.25, Prices: review.Prices{Input: 1, Output: 4}}, true}} {
		var out bytes.Buffer
		r := &review.Review{Status: review.StatusComplete, Cost: tc.cost}
		if err := (&Reporter{W: &out}).Report(context.Background(), r); err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(out.String(), "per million tokens"); got != tc.want {
			t.Errorf("cost %v: report %q", tc.cost, out.String())
		}
	}
}
