package review

import "testing"

// One number format for token counts shown to people (issue 33 item 9:
// "4,866 tokens" beside "4596 prompt").
func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 4596: "4,596", 1234567: "1,234,567", -4596: "-4,596"} {
		if got := Thousands(n); got != want {
			t.Errorf("Thousands(%d) = %q, want %q", n, got, want)
		}
	}
	u := Usage{CachedTokens: 2048, ReasoningTokens: 1500}
	if got, want := u.Breakdown(), " (2,048 of the prompt tokens cached, 1,500 of the completion tokens reasoning)"; got != want {
		t.Errorf("Breakdown = %q, want %q", got, want)
	}
}
