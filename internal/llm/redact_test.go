package llm_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/internal/llm"
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
			io.WriteString(w, `{"error":{"message":"Incorrect API key provided: `+token+`.","type":"invalid_request_error","code":"invalid_api_key"}}`)
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
