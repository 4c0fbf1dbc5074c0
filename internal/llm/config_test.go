package llm

import (
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
