package reporters

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestReadState(t *testing.T) {
	body := summaryMarker + "\n## ocr review\n\n" + stateMarker(State{Head: "abc123", Config: "cfg-1"})
	if s, ok := ReadState(body); !ok || s.Head != "abc123" || s.Config != "cfg-1" || s.Findings != nil {
		t.Errorf("ReadState = %+v, %v", s, ok)
	}
	for _, bad := range []string{
		"## not ours\n" + stateMarker(State{Head: "abc"}),                 // no summary marker first
		summaryMarker + "\n" + stateMarker(State{Head: "abc"}) + "\nmore", // state not last
		summaryMarker + "\n<!-- ocr:state head=zz config=x -->",           // not hex
	} {
		if s, ok := ReadState(bad); ok {
			t.Errorf("ReadState(%q) = %+v, want none", bad, s)
		}
	}
}

func TestMarkerFingerprint(t *testing.T) {
	cases := map[string]string{
		"text\n\n" + fingerprintMarker("abc123"):           "abc123",
		"text\n" + fingerprintMarker("abc") + "\n\n":       "abc",
		fingerprintMarker("abc") + "\ntrailing human text": "",
		"<!-- ocr:fp=a b -->":                              "",
	}
	for body, want := range cases {
		if got, _ := markerFingerprint(body); got != want {
			t.Errorf("markerFingerprint(%q) = %q, want %q", body, got, want)
		}
	}
}

func TestPostSafe(t *testing.T) {
	cases := []struct{ in, want string }{
		{"a <b> c", "a &lt;b> c"},
		{"see `a < b` and ``x`y``", "see `a < b` and ``x`y``"},
		{"![img](http://x) @octocat e@mail", "!\\[img](http://x) @\u200boctocat e@mail"},
		{"<!-- ocr:fp=x -->", "&lt;!-- ocr:fp=x -->"},
		{"`<!--`", "`<!-\u200b-`"},
		{"```go\nif a <!-- b {\n```\nafter <x>", "```go\nif a <!-\u200b- b {\n```\nafter &lt;x>"},
		{"```\nunclosed", "```\nunclosed\n```"},
		{"~~~~\n```\n~~~~\n<y>", "~~~~\n```\n~~~~\n&lt;y>"},
		{"a\x1b[31mred\u202egnp.exe\r\nb\tc", "a[31mredgnp.exe\nb\tc"},
	}
	for _, c := range cases {
		if got := postSafe(c.in); got != c.want {
			t.Errorf("postSafe(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestPostFence(t *testing.T) {
	for code, want := range map[string]string{"x": "```", "a ``` b": "````", "`````": "``````"} {
		if got := postFence(code); got != want {
			t.Errorf("postFence(%q) = %q, want %q", code, got, want)
		}
	}
}

func TestPostCutKeepsRunes(t *testing.T) {
	s := strings.Repeat("日本", 100)
	got := postCut(s, 100)
	if len(got) > 100 || !strings.HasSuffix(got, "(truncated)") || !strings.HasPrefix(got, "日本") {
		t.Errorf("postCut = %q", got)
	}
}

// TestLimiterWaitsForReset: a response that used the last request of the
// window makes the next request wait until the reset; a 403 without any
// rate-limit sign is returned as it is.
func TestLimiterWaitsForReset(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	n := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n++
		if n == 1 {
			w.Header().Set("X-RateLimit-Remaining", "0")
			w.Header().Set("X-RateLimit-Reset", strconv.FormatInt(now.Add(90*time.Second).Unix(), 10))
			return
		}
		w.WriteHeader(http.StatusForbidden)
		w.Write([]byte(`{"message":"Resource not accessible by integration"}`))
	}))
	defer srv.Close()
	var slept []time.Duration
	lim := newLimiter(srv.Client().Transport, 1, func(_ context.Context, d time.Duration) error {
		slept = append(slept, d)
		return nil
	}, func(string, ...any) {})
	lim.now = func() time.Time { return now }
	c := &http.Client{Transport: lim}
	resp, err := c.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.Header.Get("X-RateLimit-Remaining") != "" {
		t.Error("rate-limit headers must be consumed by the limiter")
	}
	req, _ := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader("{}"))
	resp, err = c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden || n != 2 || len(slept) != 1 || slept[0] != 90*time.Second {
		t.Errorf("status %d after %d requests, slept %v", resp.StatusCode, n, slept)
	}
	if r, w := lim.Calls(); r != 1 || w != 1 {
		t.Errorf("Calls = %d, %d", r, w)
	}
}
