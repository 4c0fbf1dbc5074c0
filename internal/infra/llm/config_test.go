package llm

import (
	"strings"
	"testing"
	"time"
)

func TestHeadersJSON(t *testing.T) {
	var h Headers
	if err := h.Decode(`{"HTTP-Referer":"https://x","X-Title":"ocr"}`); err != nil {
		t.Fatal(err)
	}
	if h["X-Title"] != "ocr" || h["HTTP-Referer"] != "https://x" {
		t.Errorf("headers = %v", h)
	}
}

func TestRetryAfterParsing(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for v, want := range map[string]time.Duration{
		"2":                             2 * time.Second,
		"0.5":                           500 * time.Millisecond,
		"Fri, 02 Jan 2026 03:04:15 GMT": 10 * time.Second,
	} {
		if got, ok := parseRetryAfter(v, now); !ok || got != want {
			t.Errorf("parseRetryAfter(%q) = %v, %v; want %v", v, got, ok, want)
		}
	}
	if _, ok := parseRetryAfter("later", now); ok {
		t.Error("parseRetryAfter(later) ok")
	}
}

func TestBackoffGrowsAndIsCapped(t *testing.T) {
	c := &Client{opt: Options{BaseDelay: 100 * time.Millisecond, MaxDelay: time.Second, Jitter: func() float64 { return 0.999 }}.withDefaults()}
	prev := time.Duration(0)
	for n := 1; n <= 8; n++ {
		d, ok := c.delay(n, "")
		if !ok || d < prev || d > time.Second {
			t.Errorf("delay(%d) = %v, %v (previous %v)", n, d, ok, prev)
		}
		prev = d
	}
	if d, _ := c.delay(1, ""); d < 50*time.Millisecond {
		t.Errorf("delay(1) = %v, want at least half the base", d)
	}
	if _, ok := c.delay(1, "3600"); ok {
		t.Error("a Retry-After beyond MaxDelay should end the retries")
	}
}

// TestValidateNamesWhatIsMissing: with the endpoint set, the error does
// not say no endpoint is configured; it names the missing variable and,
// for a token, why this host needs one. With nothing set it says so.
func TestValidateNamesWhatIsMissing(t *testing.T) {
	for _, tc := range []struct {
		cfg       Config
		want, not string
	}{
		{Config{URL: "https://bob:pw@llm.example.com/v1", Model: "m"},
			"the LLM endpoint from OCR_LLM_URL needs more settings: set OCR_LLM_TOKEN (or OPENAI_API_KEY) (llm.example.com is not localhost", "no LLM endpoint"},
		{Config{URL: "http://localhost:8080/v1"}, "set OCR_LLM_MODEL (or --model, or OPENAI_MODEL)", "needs a token"},
		{Config{}, "no LLM endpoint configured: set OCR_LLM_URL", "needs more"},
	} {
		err := tc.cfg.Validate()
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), tc.not) || strings.Contains(err.Error(), "pw") {
			t.Errorf("%+v: error %v; want %q, not %q, no credentials", tc.cfg, err, tc.want, tc.not)
		}
	}
}
