package readonce_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/ocr-ci/ocr/internal/infra/readonce"
)

// server counts the requests it sees and answers each with its count.
func server(t *testing.T, status int) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c := n.Add(1)
		w.Header().Set("X-RateLimit-Remaining", "4999")
		w.Header().Set("X-Next-Page", "2")
		w.WriteHeader(status)
		_, _ = io.WriteString(w, r.Method+" "+r.URL.String()+" #"+strconv.FormatInt(c, 10))
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

// send sends one request through rt with token as its bearer ("" none)
// and returns the answer's body and headers.
func send(t *testing.T, rt http.RoundTripper, method, url, token string) (string, http.Header) {
	t.Helper()
	req, err := http.NewRequestWithContext(context.Background(), method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := (&http.Client{Transport: rt}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(resp.Body)
	if cerr := resp.Body.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(b), resp.Header
}

// TestReadOnceUntilAWrite: a repeated GET is answered from memory, with
// the page's own headers but not its stale rate-limit ones; another URL
// or token is asked; a write forgets everything; HEAD does not.
func TestReadOnceUntilAWrite(t *testing.T) {
	srv, n := server(t, 200)
	rt := readonce.New(nil)
	first, _ := send(t, rt, http.MethodGet, srv.URL+"/a?page=1", "tok")
	again, h := send(t, rt, http.MethodGet, srv.URL+"/a?page=1", "tok")
	if first != again || n.Load() != 1 || h.Get("X-Next-Page") != "2" || h.Get("X-RateLimit-Remaining") != "" {
		t.Fatalf("again %q after %q, %d requests, headers %v", again, first, n.Load(), h)
	}
	send(t, rt, http.MethodGet, srv.URL+"/a?page=2", "tok")
	send(t, rt, http.MethodGet, srv.URL+"/a?page=1", "other")
	if n.Load() != 3 {
		t.Errorf("%d requests, want another page and another token asked", n.Load())
	}
	send(t, rt, http.MethodHead, srv.URL+"/a", "tok")
	if send(t, rt, http.MethodGet, srv.URL+"/a?page=1", "tok"); n.Load() != 4 {
		t.Errorf("%d requests: HEAD made the memory forget", n.Load())
	}
	send(t, rt, http.MethodPost, srv.URL+"/a", "tok")
	if after, _ := send(t, rt, http.MethodGet, srv.URL+"/a?page=1", "tok"); after == first || n.Load() != 6 {
		t.Errorf("after a write: %q, %d requests; want it asked again", after, n.Load())
	}
}

// TestReadOnceKeeps: a page and a refusal of the token are kept; a server
// error, a rate limit (GitHub's 403 with Retry-After, or with no request
// left, or saying so) and a 429 are asked again.
func TestReadOnceKeeps(t *testing.T) {
	for _, c := range []struct {
		name   string
		status int
		header map[string]string
		body   string
		kept   bool
	}{
		{"page", 200, nil, "[]", true},
		{"installation token on GET /user", 403, nil, `{"message":"Resource not accessible by integration"}`, true},
		{"unknown token", 401, nil, `{"message":"401 Unauthorized"}`, true},
		{"not a member", 404, nil, `{"message":"404 Not found"}`, true},
		{"server error", 502, nil, "bad gateway", false},
		{"too many requests", 429, nil, "slow down", false},
		{"secondary rate limit", 403, map[string]string{"Retry-After": "7"}, `{"message":"You have exceeded a secondary rate limit"}`, false},
		{"primary rate limit", 403, map[string]string{"X-RateLimit-Remaining": "0"}, `{"message":"API rate limit exceeded"}`, false},
		{"rate limit said only in the body", 403, nil, `{"message":"You have exceeded a secondary rate limit"}`, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			var n atomic.Int64
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				n.Add(1)
				for k, v := range c.header {
					w.Header().Set(k, v)
				}
				w.WriteHeader(c.status)
				_, _ = io.WriteString(w, c.body)
			}))
			defer srv.Close()
			rt := readonce.New(nil)
			send(t, rt, http.MethodGet, srv.URL, "")
			if body, _ := send(t, rt, http.MethodGet, srv.URL, ""); body != c.body {
				t.Errorf("body %q, want %q", body, c.body)
			}
			if kept := n.Load() == 1; kept != c.kept {
				t.Errorf("%d requests: kept %v, want %v", n.Load(), kept, c.kept)
			}
		})
	}
}

// TestReadOnceOnSharesMemory: a transport rebuilt with On over another
// base reads from and forgets the same memory.
func TestReadOnceOnSharesMemory(t *testing.T) {
	srv, n := server(t, 200)
	t1 := readonce.New(nil)
	t2 := t1.On(http.DefaultTransport)
	send(t, t1, http.MethodGet, srv.URL, "")
	send(t, t2, http.MethodGet, srv.URL, "")
	if n.Load() != 1 {
		t.Errorf("%d requests, want the second answered from the first's memory", n.Load())
	}
	send(t, t2, http.MethodPost, srv.URL, "")
	send(t, t1, http.MethodGet, srv.URL, "")
	if n.Load() != 3 {
		t.Errorf("%d requests, want a write through one to make the other forget", n.Load())
	}
}

// TestReadOnceReadAcrossAWrite: a read that was in flight when a write
// happened is not kept: it may predate the write.
func TestReadOnceReadAcrossAWrite(t *testing.T) {
	var n atomic.Int64
	rt := readonce.New(nil)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 { // a write lands while the first read is answered
			send(t, rt, http.MethodPost, "http://"+r.Host+"/w", "")
		}
		_, _ = io.WriteString(w, "x")
	}))
	defer srv.Close()
	send(t, rt, http.MethodGet, srv.URL+"/r", "")
	send(t, rt, http.MethodGet, srv.URL+"/r", "")
	if n.Load() != 3 { // read, write, read again
		t.Errorf("%d requests, want the read in flight across the write asked again", n.Load())
	}
}
