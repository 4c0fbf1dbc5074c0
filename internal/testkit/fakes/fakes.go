// Package fakes holds what the strict platform fakes (githubfake,
// gitlabfake) share: JSON answers, strict body decoding and a call recorder
// that fails the test on routes that were expected but never requested.
// It is test support: nothing outside tests imports it.
package fakes

import (
	"encoding/json"
	"net/http"
	"sort"
	"strings"
	"sync"
	"testing"
)

// WriteJSON answers v with status, the way the platforms do: JSON with
// "<", ">" and "&" left as they are.
func WriteJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	// The fakes answer plain values that always encode; a failed write means
	// the client is gone, and there is no one left to answer.
	_ = enc.Encode(v)
}

// Decode reads a JSON body strictly: an unknown field or a malformed body
// fails the test and returns false.
func Decode(t testing.TB, r *http.Request, v any) bool {
	t.Helper()
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Errorf("%s %s: body: %v", r.Method, r.URL.Path, err)
		return false
	}
	return true
}

// Recorder counts requests by "METHOD /path" and, when the test ends, fails
// it for every expected route that was never requested.
type Recorder struct {
	mu     sync.Mutex
	counts map[string]int
	expect map[string]bool
	seen   map[string]bool
}

// NewRecorder returns a recorder checked when t ends.
func NewRecorder(t testing.TB) *Recorder {
	r := &Recorder{counts: map[string]int{}, expect: map[string]bool{}, seen: map[string]bool{}}
	t.Cleanup(func() {
		for _, k := range r.Unused() {
			t.Errorf("fake: expected route %s was never requested", k)
		}
	})
	return r
}

// Add counts one request.
func (r *Recorder) Add(key string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.counts[key]++
	r.seen[key] = true
}

// Expect declares routes ("METHOD /path") that must be requested at least
// once before the test ends.
func (r *Recorder) Expect(keys ...string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, k := range keys {
		r.expect[k] = true
	}
}

// Unused lists the expected routes not requested so far, sorted.
func (r *Recorder) Unused() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for k := range r.expect {
		if !r.seen[k] {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// Snapshot returns the counts since the last Reset.
func (r *Recorder) Snapshot() map[string]int {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make(map[string]int, len(r.counts))
	for k, v := range r.counts {
		out[k] = v
	}
	return out
}

// Reset clears the counts (expectations and what was seen stay).
func (r *Recorder) Reset() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.counts = map[string]int{}
}

// Writes is the number of requests in calls that are not GETs nor
// GraphQL queries (counted as "QUERY name").
func Writes(calls map[string]int) int {
	n := 0
	for k, v := range calls {
		if !strings.HasPrefix(k, "GET ") && !strings.HasPrefix(k, "QUERY ") {
			n += v
		}
	}
	return n
}
