package retry

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	cases := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"120", 2 * time.Minute, true},
		{" 7 ", 7 * time.Second, true},
		{"1.5", 1500 * time.Millisecond, true},
		{"0", 0, true},
		{now.Add(90 * time.Second).Format(http.TimeFormat), 90 * time.Second, true},
		{"Tue, 01 Dec 2026 12:00:30 GMT", 30 * time.Second, true},
		{now.Add(-time.Hour).Format(http.TimeFormat), 0, true}, // past date: no wait
		{"", 0, false},
		{"soon", 0, false},
		{"-5", 0, false},
		{"Tue, 01 Dec 2026 25:99:00 GMT", 0, false},
	}
	for _, c := range cases {
		got, ok := ParseRetryAfter(c.in, now)
		if got != c.want || ok != c.ok {
			t.Errorf("ParseRetryAfter(%q) = %v, %v; want %v, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestBackoffCapAndJitterBounds(t *testing.T) {
	for _, r := range []float64{0, 0.5, 0.999999} {
		b := Backoff{Base: 500 * time.Millisecond, Cap: 4 * time.Second, Rand: func() float64 { return r }}
		for n := 1; n <= 70; n++ {
			full := b.Cap
			if n <= 3 {
				full = b.Base << (n - 1) // 0.5s, 1s, 2s; then the 4s cap, never an overflow
			}
			d := b.Delay(n)
			if d < full/2 || d > full {
				t.Fatalf("rand %v attempt %d: delay %v outside [%v, %v]", r, n, d, full/2, full)
			}
		}
	}
	b := Backoff{Base: time.Second, Cap: time.Minute, Rand: func() float64 { return 0 }}
	if got := b.Delay(3); got != 2*time.Second {
		t.Errorf("attempt 3 with no jitter drawn: %v, want 2s (half of 4s)", got)
	}
	if got := (Backoff{Base: time.Second, Cap: time.Minute}).Delay(1); got != time.Second {
		t.Errorf("nil Rand: %v, want the upper bound 1s", got)
	}
}

func TestBackoffNextHonoursRetryAfterUpToTheCap(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	b := Backoff{Base: time.Second, Cap: time.Minute, Rand: func() float64 { return 0 }}
	if d, ok := b.Next(1, "30", now); d != 30*time.Second || !ok {
		t.Errorf("Retry-After 30: %v %v", d, ok)
	}
	if d, ok := b.Next(1, now.Add(2*time.Minute).Format(http.TimeFormat), now); d != 2*time.Minute || ok {
		t.Errorf("Retry-After date beyond the cap: %v %v, want 2m and false (give up)", d, ok)
	}
	if d, ok := b.Next(2, "garbage", now); d != time.Second || !ok {
		t.Errorf("unreadable Retry-After falls back to backoff: %v %v", d, ok)
	}
}

func TestSleepEndsWithTheContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	start := time.Now()
	if err := Sleep(ctx, time.Hour); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if time.Since(start) > 5*time.Second {
		t.Error("Sleep did not return when the context ended")
	}
	if err := Sleep(context.Background(), time.Millisecond); err != nil {
		t.Error(err)
	}
}

// TestTransportReadsRetryAfterAsHTTPDate: the posters' transport used to
// read only integer seconds; a 429 with an HTTP date now waits that long.
func TestTransportReadsRetryAfterAsHTTPDate(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	n := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		n++
		if n == 1 {
			w.Header().Set("Retry-After", now.Add(42*time.Second).Format(http.TimeFormat))
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		w.WriteHeader(http.StatusOK)
	}))
	defer srv.Close()
	var slept []time.Duration
	tr := NewTransport(srv.Client().Transport, Options{Now: func() time.Time { return now },
		Sleep: func(_ context.Context, d time.Duration) error { slept = append(slept, d); return nil }})
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := (&http.Client{Transport: tr}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if err := resp.Body.Close(); err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || n != 2 || len(slept) != 1 || slept[0] != 42*time.Second {
		t.Errorf("status %d after %d requests, slept %v; want 200 after 2, slept [42s]", resp.StatusCode, n, slept)
	}
}
