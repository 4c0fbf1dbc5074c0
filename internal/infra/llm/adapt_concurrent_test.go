package llm_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/ocr-ci/ocr/internal/testkit/llmtest"
)

// barrier forwards to the scripted server once n requests have arrived
// (later ones at once): n requests are all sent before any is answered,
// as concurrent groups or voting passes send theirs.
func barrier(t *testing.T, to string, n int) string {
	t.Helper()
	u, err := url.Parse(to)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(&url.URL{Scheme: u.Scheme, Host: u.Host})
	var wg sync.WaitGroup
	wg.Add(n)
	var mu sync.Mutex
	seen := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen++
		first := seen <= n
		mu.Unlock()
		if first {
			wg.Done()
			wg.Wait()
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + strings.TrimPrefix(to, u.Scheme+"://"+u.Host)
}

// TestConcurrentRefusalsAllAdapt: when several requests are in flight
// before the endpoint's first refusal (tools, or temperature), every one
// of them is sent again adapted, not only the one that taught the client;
// the lesson is logged once. Before, the others failed: with --passes 3
// against Ollama two passes of three ended provider_error.
func TestConcurrentRefusalsAllAdapt(t *testing.T) {
	for name, q := range map[string]llmtest.Quirks{
		"tools":       {NoTools: "ollama"},
		"temperature": {Refuse: []string{"temperature"}},
	} {
		t.Run(name, func(t *testing.T) {
			markers := []string{"p1", "p2", "p3"}
			var scripts []llmtest.Script
			for _, m := range markers {
				scripts = append(scripts, llmtest.Script{Match: []string{m}, Answers: []llmtest.Answer{llmtest.Calls(llmtest.Done())}})
			}
			srv := llmtest.New(t, scripts...)
			srv.SetQuirks(q)
			cfg := srv.Config()
			cfg.URL = barrier(t, cfg.URL, len(markers))
			r := &recorder{}
			c := newClient(t, cfg, r)
			errs := make([]error, len(markers))
			var wg sync.WaitGroup
			for i, m := range markers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					_, errs[i] = c.Chat(context.Background(), withTools(m))
				}()
			}
			wg.Wait()
			for i, err := range errs {
				if err != nil {
					t.Errorf("request %s failed: %v", markers[i], err)
				}
			}
			if srv.Count() != 2*len(markers) {
				t.Errorf("%d requests, want each refused once and sent again adapted (%d)", srv.Count(), 2*len(markers))
			}
			if len(r.logs) != 1 {
				t.Errorf("logs = %q, want the lesson once", r.logs)
			}
		})
	}
}
