package githubapi_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/ocr-ci/ocr/internal/infra/githubapi"
)

// TestNewGHESBaseURLTokenAndRateLimit: requests go to the GHES API path
// with the token, and a 429 with Retry-After is waited out by the shared
// transport (through the injected sleep) instead of failing.
func TestNewGHESBaseURLTokenAndRateLimit(t *testing.T) {
	n := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n++
		if r.URL.Path != "/api/v3/repos/o/r/pulls/7" || r.Header.Get("Authorization") != "Bearer tok" {
			t.Errorf("request %s %s, auth %q", r.Method, r.URL.Path, r.Header.Get("Authorization"))
			w.WriteHeader(http.StatusNotFound)
			return
		}
		if n == 1 {
			w.Header().Set("Retry-After", "3")
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"number":7,"head":{"sha":"abc"}}`)) // fails only when the client has gone
	}))
	defer srv.Close()
	var slept []time.Duration
	c, err := githubapi.New("tok", srv.URL+"/api/v3", githubapi.WithHTTPClient(srv.Client()),
		githubapi.WithSleep(func(_ context.Context, d time.Duration) error { slept = append(slept, d); return nil }))
	if err != nil {
		t.Fatal(err)
	}
	pr, _, err := c.PullRequests.Get(context.Background(), "o", "r", 7)
	if err != nil {
		t.Fatal(err)
	}
	if pr.GetHead().GetSHA() != "abc" || n != 2 || len(slept) != 1 || slept[0] != 3*time.Second {
		t.Errorf("head %q after %d requests, slept %v", pr.GetHead().GetSHA(), n, slept)
	}
	if c.Client().Timeout != githubapi.DefaultTimeout {
		t.Errorf("timeout %v, want %v", c.Client().Timeout, githubapi.DefaultTimeout)
	}
}

func TestNewRejectsABadBaseURL(t *testing.T) {
	for _, u := range []string{"ghe.example/api/v3", "://x", "http://"} {
		if _, err := githubapi.New("", u); err == nil || !strings.Contains(err.Error(), "GITHUB_API_URL") {
			t.Errorf("New(%q): err = %v, want one naming GITHUB_API_URL", u, err)
		}
	}
	c, err := githubapi.New("", "")
	if err != nil || c.BaseURL.String() != "https://api.github.com/" {
		t.Errorf("default: %v %v", c.BaseURL, err)
	}
}
