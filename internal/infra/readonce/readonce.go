// Package readonce is the transport that lets one run read its pull or
// merge request once: the forge clients of a run (the poster, the last
// review's state, the conversation's pause and ignore) send through one
// Transport, which answers a GET it has answered before from memory, until
// the run writes. A run's reads then cost one request per page, however
// many parts of ocr read them; a write (any method but GET and HEAD,
// GraphQL queries included) forgets everything, so what is read after it
// is read again. Kept are successes and refusals (401, 403, 404: "GET
// /user" answers 403 to an installation token, every time), never a rate
// limit, a server error or a network failure.
package readonce

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
)

// maxBody is the largest answer kept: a listing page of 100 comments is
// far smaller; a larger answer is sent on but not kept.
const maxBody = 8 << 20

// Transport answers repeated GETs from memory until a write. Safe for
// concurrent use.
type Transport struct {
	// Next sends what memory cannot answer; nil means http.DefaultTransport.
	Next http.RoundTripper
	mem  *memory
}

// memory is what a Transport and the transports made from it by On share.
type memory struct {
	mu      sync.Mutex
	gen     int // bumped by every write: a read begun before one is not kept
	answers map[string]answer
}

type answer struct {
	status int
	header http.Header
	body   []byte
}

// New returns a Transport over next (nil: http.DefaultTransport) with an
// empty memory.
func New(next http.RoundTripper) *Transport {
	return &Transport{Next: next, mem: &memory{answers: map[string]answer{}}}
}

// On is a Transport over next sharing t's memory: a client that must
// configure the base transport (a CA file) rebuilds it under t's memory.
func (t *Transport) On(next http.RoundTripper) *Transport { return &Transport{Next: next, mem: t.mem} }

// RoundTrip answers req from memory or sends it on.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method != http.MethodGet {
		if req.Method != http.MethodHead {
			t.mem.forget()
		}
		return t.next().RoundTrip(req)
	}
	key := keyOf(req)
	gen, a, ok := t.mem.lookup(key)
	if ok {
		return a.response(req), nil
	}
	resp, err := t.next().RoundTrip(req)
	if err != nil || !keptStatus[resp.StatusCode] {
		return resp, err
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBody+1))
	_ = resp.Body.Close()
	if err != nil {
		return nil, err
	}
	a = answer{status: resp.StatusCode, header: resp.Header.Clone(), body: body}
	if len(body) <= maxBody && !rateLimited(resp.Header, body) {
		t.mem.keep(key, gen, a)
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	return resp, nil
}

// keptStatus are the answers that stay true for a run: a page, or a
// refusal of this token.
var keptStatus = map[int]bool{http.StatusOK: true, http.StatusUnauthorized: true, http.StatusForbidden: true, http.StatusNotFound: true}

// rateLimited reports whether an answer tells of a rate limit (GitHub
// answers 403 to those): a retry after a wait may be answered otherwise.
func rateLimited(h http.Header, body []byte) bool {
	if h.Get("Retry-After") != "" || h.Get("X-RateLimit-Remaining") == "0" || h.Get("RateLimit-Remaining") == "0" {
		return true
	}
	return bytes.Contains(bytes.ToLower(body), []byte("rate limit"))
}

func (t *Transport) next() http.RoundTripper {
	if t.Next == nil {
		return http.DefaultTransport
	}
	return t.Next
}

// keyOf tells requests apart by URL and by the credentials they carry:
// two tokens may see different things.
func keyOf(req *http.Request) string {
	return req.URL.String() + "\x00" + req.Header.Get("Authorization") + "\x00" + req.Header.Get("Private-Token") +
		"\x00" + req.Header.Get("Accept")
}

func (m *memory) lookup(key string) (int, answer, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	a, ok := m.answers[key]
	return m.gen, a, ok
}

// keep stores a, unless a write happened since the read began.
func (m *memory) keep(key string, gen int, a answer) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if gen == m.gen {
		m.answers[key] = a
	}
}

func (m *memory) forget() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.gen++
	clear(m.answers)
}

// response is a copy of a as the answer to req. The rate-limit headers
// are left out: they told the state of the limit when the page was read,
// and the rate-limiting transport above would wait on a stale "0 left".
func (a answer) response(req *http.Request) *http.Response {
	h := a.header.Clone()
	for k := range h {
		if l := strings.ToLower(k); strings.HasPrefix(l, "x-ratelimit-") || strings.HasPrefix(l, "ratelimit-") || l == "retry-after" {
			h.Del(k)
		}
	}
	return &http.Response{Status: fmt.Sprintf("%d %s", a.status, http.StatusText(a.status)), StatusCode: a.status,
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1, Header: h, Body: io.NopCloser(bytes.NewReader(a.body)),
		ContentLength: int64(len(a.body)), Request: req}
}
