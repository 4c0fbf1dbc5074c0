package llm_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/ocr-ci/ocr/internal/infra/llm"
	"github.com/ocr-ci/ocr/internal/testkit/llmtest"
)

// Each fault is classified once, at the first attempt: configuration
// mistakes stop the run and name the variable to fix; transient failures
// are retried.
func TestFaultClassification(t *testing.T) {
	const page = `<!DOCTYPE html><html><head><title>Welcome to nginx!</title></head><body><h1>Welcome</h1></body></html>`
	tests := []struct {
		name     string
		answer   llmtest.Answer
		kind     llm.Kind
		stops    bool
		variable string
		attempts int
		want     string // in the error
	}{
		{"401", llmtest.Answer{Status: 401, Message: "Incorrect API key provided"}, llm.KindAuth, true, "OCR_LLM_TOKEN", 1, "HTTP 401: Incorrect API key provided"},
		{"403", llmtest.Answer{Status: 403}, llm.KindAuth, true, "OCR_LLM_TOKEN", 1, "HTTP 403"},
		{"404 model", llmtest.Answer{Status: 404, Message: "The model `gpt-9` does not exist"}, llm.KindNotFound, true, "OCR_LLM_MODEL", 1, "does not exist"},
		{"404 page", llmtest.Answer{Status: 404, Body: "<html><body>404 page not found</body></html>"}, llm.KindNotFound, true, "OCR_LLM_URL", 1, "404 page not found"},
		{"HTML 200", llmtest.Answer{Body: page}, llm.KindNotOpenAI, true, "OCR_LLM_URL", 1, `HTTP 200: text/html body "HTML page titled \"Welcome to nginx!\""`},
		{"text 200", llmtest.Answer{Body: "OK", ContentType: "text/plain"}, llm.KindNotOpenAI, true, "OCR_LLM_URL", 1, `HTTP 200: text/plain body "OK"`},
		{"JSON not a completion", llmtest.Answer{Body: `{"status":"ok"}`, ContentType: "application/json"}, llm.KindNotOpenAI, true, "OCR_LLM_URL", 1, `application/json body "{\"status\":\"ok\"}"`},
		{"HTML 405", llmtest.Answer{Status: 405, Body: page}, llm.KindNotOpenAI, true, "OCR_LLM_URL", 1, "HTTP 405"},
		{"HTML 502 is retried", llmtest.Answer{Status: 502, Body: page}, llm.KindTransient, false, "", 3, "HTTP 502"},
		{"400 fails the request only", llmtest.Answer{Status: 400, Message: "context length exceeded"}, llm.KindRejected, false, "", 1, "context length exceeded"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.New(t)
			srv.Handle(func(llmtest.Request) llmtest.Answer { return tt.answer })
			r := &recorder{}
			opt := r.options()
			opt.MaxAttempts = 3
			c, err := llm.New(srv.Config(), opt)
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.Chat(context.Background(), ask("M"))
			var e *llm.Error
			if !errors.As(err, &e) {
				t.Fatalf("Chat error = %#v, want *llm.Error", err)
			}
			if e.Kind != tt.kind || e.StopsRun() != tt.stops || e.Variable() != tt.variable {
				t.Errorf("kind %v stops %v variable %q, want %v %v %q (%v)", e.Kind, e.StopsRun(), e.Variable(), tt.kind, tt.stops, tt.variable, err)
			}
			if srv.Count() != tt.attempts || e.Attempts != tt.attempts {
				t.Errorf("%d requests, %d attempts; want %d", srv.Count(), e.Attempts, tt.attempts)
			}
			if !strings.Contains(err.Error(), tt.want) || (tt.variable != "" && !strings.Contains(err.Error(), tt.variable)) {
				t.Errorf("error %q, want it to contain %q and %q", err, tt.want, tt.variable)
			}
			if strings.Contains(err.Error(), "<") {
				t.Errorf("error quotes raw HTML: %v", err)
			}
		})
	}
}

// A refused connection and a failed DNS lookup stop the run at the first
// attempt, naming OCR_LLM_URL.
func TestFaultUnreachable(t *testing.T) {
	dns := roundTripFunc(func(*http.Request) (*http.Response, error) {
		return nil, &net.OpError{Op: "dial", Net: "tcp", Err: &net.DNSError{Err: "no such host", Name: "llm.example", IsNotFound: true}}
	})
	for name, cfg := range map[string]struct {
		url string
		tr  http.RoundTripper
	}{
		"refused": {llmtest.RefusedURL(t), nil},
		"dns":     {"https://llm.example/v1", dns},
		"connect timeout": {"https://10.255.255.1/v1", roundTripFunc(func(*http.Request) (*http.Response, error) {
			return nil, &net.OpError{Op: "dial", Net: "tcp", Err: timeoutErr{}}
		})},
	} {
		t.Run(name, func(t *testing.T) {
			r := &recorder{}
			opt := r.options()
			opt.Transport = cfg.tr
			c, err := llm.New(llm.Config{URL: cfg.url, Token: "tok-123456", Model: "m"}, opt)
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			_, err = c.Chat(context.Background(), ask("M"))
			var e *llm.Error
			if !errors.As(err, &e) || e.Kind != llm.KindUnreachable || !e.StopsRun() || e.Attempts != 1 {
				t.Fatalf("Chat error = %#v, want one attempt of KindUnreachable", err)
			}
			if !strings.Contains(err.Error(), "OCR_LLM_URL") || len(r.sleeps) != 0 || time.Since(start) > 5*time.Second {
				t.Errorf("error %v after %d sleeps; want OCR_LLM_URL and no retry", err, len(r.sleeps))
			}
		})
	}
}

// Once the endpoint has answered, a refused connection is a restart, not
// a wrong URL: it is retried.
func TestRefusedAfterAnswerIsRetried(t *testing.T) {
	srv := llmtest.New(t, llmtest.Script{Match: []string{"M"}, Answers: []llmtest.Answer{llmtest.Text("ok")}})
	refused := false
	tr := roundTripFunc(func(req *http.Request) (*http.Response, error) {
		if refused {
			return nil, &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connect: connection refused")}
		}
		return http.DefaultTransport.RoundTrip(req)
	})
	r := &recorder{}
	opt := r.options()
	opt.Transport, opt.MaxAttempts = tr, 2
	c, err := llm.New(srv.Config(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Chat(context.Background(), ask("M")); err != nil {
		t.Fatal(err)
	}
	refused = true
	_, err = c.Chat(context.Background(), ask("M"))
	var e *llm.Error
	if !errors.As(err, &e) || e.Kind != llm.KindTransient || e.StopsRun() || e.Attempts != 2 {
		t.Fatalf("Chat error = %#v, want a retried transient failure", err)
	}
}

// timeoutErr is what a dialer's timeout reports (net.Error with Timeout).
type timeoutErr struct{}

func (timeoutErr) Error() string   { return "i/o timeout" }
func (timeoutErr) Timeout() bool   { return true }
func (timeoutErr) Temporary() bool { return true }

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// Retries are logged once per scope and failure kind, not per attempt.
func TestRetryLogOncePerScopeAndKind(t *testing.T) {
	srv := llmtest.New(t)
	srv.Handle(func(llmtest.Request) llmtest.Answer { return llmtest.Answer{Status: 503} })
	r := &recorder{}
	opt := r.options()
	opt.MaxAttempts = 5
	c, err := llm.New(srv.Config(), opt)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range []string{"a.go", "a.go", "b.go"} {
		// Every call fails (the endpoint answers 503); what is checked is
		// what the failures logged.
		_, _ = c.Chat(llm.WithScope(context.Background(), g), ask("M"))
	}
	if len(r.logs) != 2 || !strings.Contains(r.logs[0], "a.go: attempt 1/5 failed (HTTP 503") || !strings.Contains(r.logs[1], "b.go:") {
		t.Errorf("logs = %q, want one line for a.go and one for b.go", r.logs)
	}
	if srv.Count() != 15 {
		t.Errorf("%d requests, want 3 × 5", srv.Count())
	}
}
