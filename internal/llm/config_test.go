package llm

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func lookupMap(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

func TestLoad(t *testing.T) {
	c, err := Load(lookupMap(map[string]string{
		"OCR_LLM_URL":           "https://api.example.com/v1/chat/completions/",
		"OCR_LLM_TOKEN":         "sk-secret",
		"OCR_LLM_MODEL":         "m1",
		"OCR_LLM_TIMEOUT":       "42",
		"OCR_LLM_EXTRA_HEADERS": "X-A=1, X-B = two",
		"OCR_LLM_EXTRA_BODY":    `{"enable_thinking":false}`,
	}))
	if err != nil {
		t.Fatal(err)
	}
	if got := c.BaseURL(); got != "https://api.example.com/v1" {
		t.Errorf("BaseURL = %q", got)
	}
	if time.Duration(c.Timeout) != 42*time.Second {
		t.Errorf("Timeout = %v", time.Duration(c.Timeout))
	}
	if diff := cmp.Diff(Headers{"X-A": "1", "X-B": "two"}, c.ExtraHeaders); diff != "" {
		t.Errorf("headers (-want +got):\n%s", diff)
	}
	if string(c.ExtraBody["enable_thinking"]) != "false" {
		t.Errorf("ExtraBody = %v", c.ExtraBody)
	}
	if err := c.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

func TestLoadErrors(t *testing.T) {
	for name, env := range map[string]map[string]string{
		"timeout": {"OCR_LLM_TIMEOUT": "soon"},
		"headers": {"OCR_LLM_EXTRA_HEADERS": `{"a":1}`},
		"pair":    {"OCR_LLM_EXTRA_HEADERS": "novalue"},
		"body":    {"OCR_LLM_EXTRA_BODY": "[1]"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Load(lookupMap(env))
			for k := range env {
				if err == nil || !strings.Contains(err.Error(), k) {
					t.Errorf("Load error = %v, want one naming %s", err, k)
				}
			}
		})
	}
}

func TestHeadersJSON(t *testing.T) {
	var h Headers
	if err := h.Decode(`{"HTTP-Referer":"https://x","X-Title":"ocr"}`); err != nil {
		t.Fatal(err)
	}
	if h["X-Title"] != "ocr" || h["HTTP-Referer"] != "https://x" {
		t.Errorf("headers = %v", h)
	}
}

func TestFallbacksAndValidate(t *testing.T) {
	tests := []struct {
		name    string
		env     map[string]string
		wantURL string
		wantErr []string
	}{
		{"openai key only", map[string]string{"OPENAI_API_KEY": "k", "OCR_LLM_MODEL": "gpt"}, openAIURL, nil},
		{"openai base", map[string]string{"OPENAI_API_KEY": "k", "OPENAI_BASE_URL": "https://gw/v1/", "OCR_LLM_MODEL": "m"}, "https://gw/v1", nil},
		{"ocr wins", map[string]string{"OCR_LLM_URL": "https://a/v1", "OPENAI_BASE_URL": "https://b/v1", "OCR_LLM_TOKEN": "t", "OCR_LLM_MODEL": "m"}, "https://a/v1", nil},
		{"nothing", map[string]string{}, "", []string{"OCR_LLM_URL", "OCR_LLM_TOKEN", "OCR_LLM_MODEL"}},
		{"no model", map[string]string{"OCR_LLM_URL": "https://a/v1", "OCR_LLM_TOKEN": "t"}, "https://a/v1", []string{"OCR_LLM_MODEL"}},
		{"ollama needs no token", map[string]string{"OCR_LLM_URL": "http://localhost:11434/v1", "OCR_LLM_MODEL": "qwen"}, "http://localhost:11434/v1", nil},
		{"remote needs token", map[string]string{"OCR_LLM_URL": "https://api.example.com/v1", "OCR_LLM_MODEL": "m"}, "https://api.example.com/v1", []string{"OCR_LLM_TOKEN"}},
		{"service container needs no token", map[string]string{"OCR_LLM_URL": "http://ollama:11434/v1", "OCR_LLM_MODEL": "m"}, "http://ollama:11434/v1", nil},
		{"bad scheme", map[string]string{"OCR_LLM_URL": "ftp://a", "OCR_LLM_TOKEN": "t", "OCR_LLM_MODEL": "m"}, "ftp://a", []string{"invalid OCR_LLM_URL"}},
		{"azure deployment is the model", map[string]string{"OCR_LLM_URL": "https://r.openai.azure.com", "OCR_LLM_TOKEN": "t", "OCR_LLM_AZURE_DEPLOYMENT": "gpt4o"}, "https://r.openai.azure.com", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Load(lookupMap(tt.env))
			if err != nil {
				t.Fatal(err)
			}
			if got := c.BaseURL(); got != tt.wantURL {
				t.Errorf("BaseURL = %q, want %q", got, tt.wantURL)
			}
			err = c.Validate()
			if (err != nil) != (len(tt.wantErr) > 0) {
				t.Fatalf("Validate = %v, want errors naming %v", err, tt.wantErr)
			}
			for _, w := range tt.wantErr {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("Validate = %v, want it to name %s", err, w)
				}
			}
		})
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
