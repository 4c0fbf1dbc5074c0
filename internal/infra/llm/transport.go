package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
)

// transport adds the configured headers, merges the extra body into every
// JSON request, and records each response's status and Retry-After for the
// retry loop (go-openai's errors do not carry response headers).
type transport struct {
	base    http.RoundTripper
	headers Headers
	body    Body
	adapt   *adaptations
}

// RoundTrip implements http.RoundTripper without mutating req.
func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	for k, v := range t.headers {
		req.Header.Set(k, v)
	}
	if (len(t.body) > 0 || (t.adapt != nil && t.adapt.active())) && req.Body != nil {
		if err := t.mergeBody(req); err != nil {
			return nil, err
		}
	}
	a, ok := req.Context().Value(attemptKey{}).(*attempt)
	if ok {
		a.sent = true
	}
	resp, err := t.base.RoundTrip(req)
	if ok && resp != nil {
		a.status = resp.StatusCode
		a.retryAfter = resp.Header.Get("Retry-After")
		a.contentType = resp.Header.Get("Content-Type")
		resp.Body = &headRecorder{ReadCloser: resp.Body, a: a}
	}
	return resp, err
}

// maxHead is how much of a response body an attempt keeps for the error
// message of an answer that does not decode.
const maxHead = 2048

// headRecorder keeps the first maxHead bytes read from a body.
type headRecorder struct {
	io.ReadCloser
	a *attempt
}

func (h *headRecorder) Read(p []byte) (int, error) {
	n, err := h.ReadCloser.Read(p)
	if room := maxHead - len(h.a.head); room > 0 && n > 0 {
		h.a.head = append(h.a.head, p[:min(n, room)]...)
	}
	return n, err
}

// mergeBody overwrites top-level keys of the JSON body with the extra body.
func (t *transport) mergeBody(req *http.Request) error {
	raw, err := io.ReadAll(req.Body)
	if cerr := req.Body.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("could not read request body: %w", err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return fmt.Errorf("could not merge OCR_LLM_EXTRA_BODY into a non-JSON body: %w", err)
	}
	for k, v := range t.body {
		m[k] = v
	}
	if t.adapt != nil {
		t.adapt.rewrite(m)
	}
	if raw, err = json.Marshal(m); err != nil {
		return fmt.Errorf("could not encode request body: %w", err)
	}
	req.Body = io.NopCloser(bytes.NewReader(raw))
	req.ContentLength = int64(len(raw))
	req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(raw)), nil }
	return nil
}

// attempt is what the transport saw of one HTTP exchange.
type attempt struct {
	status      int
	retryAfter  string
	contentType string
	head        []byte
	// sent is set when the request was handed to the network.
	sent bool
}

type attemptKey struct{}

func withAttempt(ctx context.Context) (context.Context, *attempt) {
	a := &attempt{}
	return context.WithValue(ctx, attemptKey{}, a), a
}
