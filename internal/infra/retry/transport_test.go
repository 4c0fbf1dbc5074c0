package retry

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestLimiterWaitsForReset: a response that used the last request of the
// window makes the next request wait until the reset; a 403 without any
// rate-limit sign is returned as it is.
func TestLimiterWaitsForReset(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	n := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		n++
		if n == 1 {
			w.Header().Set("X-RateLimit-Remaining", "0")
			w.Header().Set("X-RateLimit-Reset", strconv.FormatInt(now.Add(90*time.Second).Unix(), 10))
			return
		}
		w.WriteHeader(http.StatusForbidden)
		_, _ = w.Write([]byte(`{"message":"Resource not accessible by integration"}`)) // fails only when the client has gone
	}))
	defer srv.Close()
	var slept []time.Duration
	lim := NewTransport(srv.Client().Transport, Options{Writes: 1, Sleep: func(_ context.Context, d time.Duration) error {
		slept = append(slept, d)
		return nil
	}, Now: func() time.Time { return now }})
	c := &http.Client{Transport: lim}
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if err := resp.Body.Close(); err != nil {
		t.Fatal(err)
	}
	if resp.Header.Get("X-RateLimit-Remaining") != "" {
		t.Error("rate-limit headers must be consumed by the limiter")
	}
	req, err = http.NewRequestWithContext(t.Context(), http.MethodPost, srv.URL, strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	resp, err = c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if err := resp.Body.Close(); err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusForbidden || n != 2 || len(slept) != 1 || slept[0] != 90*time.Second {
		t.Errorf("status %d after %d requests, slept %v", resp.StatusCode, n, slept)
	}
	if r, w := lim.Calls(); r != 1 || w != 1 {
		t.Errorf("Calls = %d, %d", r, w)
	}
}
