package llm_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/internal/infra/llm"
	"github.com/ocr-ci/ocr/internal/testkit/llmtest"
)

// A provider that quotes the API key in its error must not get the key
// printed: neither in the error nor in the retry log.
func TestChatRedactsEchoedToken(t *testing.T) {
	const token = "sk-proj-SECRETKEY0123456789"
	for _, status := range []int{401, 500} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
				t.Errorf("unexpected %s %s", r.Method, r.URL.Path)
			}
			if got := r.Header.Get("Authorization"); got != "Bearer "+token {
				t.Errorf("Authorization = %q", got)
			}
			var body map[string]any
			raw, _ := io.ReadAll(r.Body)
			if err := json.Unmarshal(raw, &body); err != nil || body["model"] != "m" {
				t.Errorf("body = %s (%v)", raw, err)
			}
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			_, _ = io.WriteString(w, `{"error":{"message":"Incorrect API key provided: `+token+`.","type":"invalid_request_error","code":"invalid_api_key"}}`)
		}))
		r := &recorder{}
		opt := r.options()
		opt.MaxAttempts = 2
		c, err := llm.New(llm.Config{URL: srv.URL + "/v1", Token: token, Model: "m"}, opt)
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.Chat(context.Background(), ask("x"))
		srv.Close()
		if err == nil {
			t.Fatalf("HTTP %d: no error", status)
		}
		if strings.Contains(err.Error(), token) {
			t.Errorf("HTTP %d: error shows the key: %v", status, err)
		}
		if !strings.Contains(err.Error(), "Incorrect API key provided: ***") {
			t.Errorf("HTTP %d: error lost the provider's message: %v", status, err)
		}
		for _, l := range r.logs {
			if strings.Contains(l, token) {
				t.Errorf("HTTP %d: log shows the key: %s", status, l)
			}
		}
	}
}

// Redaction happens before any cut: a provider message that quotes the key
// across the 300-byte limit must not leave a prefix of it (issue 14, class
// 8), and the values of OCR_LLM_EXTRA_HEADERS are secrets too.
func TestRedactBeforeClip(t *testing.T) {
	const token = "sk-proj-ABCDEFGHIJKLMNOPQRSTUVWX"
	const header = "hdr-secret-0123456789abcdef"
	for _, offset := range []int{0, 270, 285, 290, 295, 299, 300, 310} {
		for _, secret := range []string{token, header, "0123456789abcdef"} {
			msg := strings.Repeat("word ", offset/5) + secret + " more words after the key"
			srv := llmtest.New(t)
			srv.Handle(func(llmtest.Request) llmtest.Answer { return llmtest.Answer{Status: 401, Message: msg} })
			cfg := srv.Config()
			cfg.Token = token
			cfg.ExtraHeaders = llm.Headers{"Authorization": "Bearer " + llmtest.Token, "X-Gateway-Key": "Key " + header[:9] + " " + "0123456789abcdef"}
			cfg.ExtraHeaders["X-Other"] = header
			c, err := llm.New(cfg, (&recorder{}).options())
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.Chat(context.Background(), ask("x"))
			if err == nil {
				t.Fatal("no error")
			}
			for _, s := range []string{token, header, "0123456789abcdef"} {
				for n := 6; n <= len(s); n++ {
					if strings.Contains(err.Error(), s[:n]) {
						t.Errorf("offset %d: the error shows %d characters of a secret: %v", offset, n, err)
						break
					}
				}
			}
		}
	}
}

// Clip never cuts inside a word, nor inside a rune.
func TestClipAtWordBoundary(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"short message", "short message"},
		{"the quick brown fox jumps over", "the quick brown…"},
		{"the   quick\n\tbrown fox jumps", "the quick brown…"},
		{"unbrokenwordthatislong", "unbrokenwordthat…"},
		{"héééééééééééé", "hééééééé…"},
	} {
		got := llm.Clip(tc.in, 16)
		if got != tc.want {
			t.Errorf("Clip(%q, 16) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
