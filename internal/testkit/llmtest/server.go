package llmtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ocr-ci/ocr/internal/infra/llm"
)

// Defaults of a new Server.
const (
	Token = "llmtest-token"
	Model = "llmtest-model"
	Path  = "/v1/chat/completions"
)

// Handler answers requests no script matches (benchmarks, generated
// conversations). It must be safe for concurrent use.
type Handler func(Request) Answer

// Server is the fake endpoint. Configure it before the first request.
type Server struct {
	// URL is the base URL, ending in /v1.
	URL string

	t        testing.TB
	srv      *httptest.Server
	closing  chan struct{}
	mu       sync.Mutex
	scripts  []*scriptState
	handler  Handler
	latency  time.Duration
	path     string
	auth     [2]string
	reqs     []Request
	record   bool
	sequence int
	quirks   Quirks
	prompts  []string // earlier prompts, for Quirks.Cache
}

type scriptState struct {
	Script
	next int
}

// New starts a server answering from scripts; it is closed, and unused
// answers reported, when the test ends.
func New(t testing.TB, scripts ...Script) *Server {
	s := &Server{t: t, closing: make(chan struct{}), path: Path,
		auth: [2]string{"Authorization", "Bearer " + Token}, record: true}
	for _, sc := range scripts {
		s.Add(sc)
	}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = s.srv.URL + "/v1"
	t.Cleanup(s.close)
	return s
}

// Add appends a script.
func (s *Server) Add(sc Script) {
	if sc.Name == "" {
		sc.Name = strings.Join(sc.Match, "+")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.scripts = append(s.scripts, &scriptState{Script: sc})
}

// Handle sets the answerer for requests that match no script. Without one,
// such a request fails the test.
func (s *Server) Handle(h Handler) { s.mu.Lock(); s.handler = h; s.mu.Unlock() }

// SetLatency adds d before every answer.
func (s *Server) SetLatency(d time.Duration) { s.mu.Lock(); s.latency = d; s.mu.Unlock() }

// SetRecord turns request recording off for memory benchmarks.
func (s *Server) SetRecord(on bool) { s.mu.Lock(); s.record = on; s.mu.Unlock() }

// Expect changes the expected path and authentication header (Azure:
// "/openai/deployments/D/chat/completions", "api-key", token).
func (s *Server) Expect(path, header, value string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.path, s.auth = path, [2]string{header, value}
}

// Config is an llm.Config pointing at the server.
func (s *Server) Config() llm.Config {
	return llm.Config{URL: s.URL, Token: Token, Model: Model}
}

// Requests returns the recorded requests in arrival order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

// Count is the number of requests received.
func (s *Server) Count() int { s.mu.Lock(); defer s.mu.Unlock(); return s.sequence }

// refuse records a request a quirk refused: it consumes no answer.
func (s *Server) refuse(req Request, status int, body string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sequence++
	req.Seq, req.Script = s.sequence, fmt.Sprintf("refused %d: %.80s", status, body)
	s.keep(req)
}

func (s *Server) close() {
	close(s.closing)
	s.srv.Close()
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, sc := range s.scripts {
		if n := len(sc.Answers) - sc.next; n > 0 && !sc.Repeat {
			s.t.Errorf("llmtest: script %q: %d answer(s) never requested", sc.Name, n)
		}
	}
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	req, ok := s.decode(w, r)
	if !ok {
		return
	}
	if status, body := s.refusal(req); status != 0 {
		s.refuse(req, status, body)
		writeRaw(w, Answer{Status: status, Body: body, ContentType: "application/json"})
		return
	}
	a, ok := s.pick(&req)
	if !ok {
		s.t.Errorf("llmtest: unexpected request (no script matches, no handler); first user message: %.300q", req.FirstUser())
		writeError(w, http.StatusBadRequest, "llmtest: unexpected request")
		return
	}
	s.mu.Lock()
	lat := s.latency
	s.mu.Unlock()
	if !s.wait(r, lat+a.Delay) {
		return
	}
	if a.Hang {
		select {
		case <-r.Context().Done():
		case <-s.closing:
		}
		return
	}
	s.answer(w, req, a)
}

// wait sleeps d unless the client goes away first.
func (s *Server) wait(r *http.Request, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-r.Context().Done():
	case <-s.closing:
	}
	return false
}

// decode checks method, path, headers and body strictly.
func (s *Server) decode(w http.ResponseWriter, r *http.Request) (Request, bool) {
	s.mu.Lock()
	path, auth := s.path, s.auth
	s.mu.Unlock()
	fail := func(format string, args ...any) (Request, bool) {
		msg := fmt.Sprintf(format, args...)
		s.t.Errorf("llmtest: %s", msg)
		writeError(w, http.StatusBadRequest, msg)
		return Request{}, false
	}
	if r.Method != http.MethodPost || r.URL.Path != path {
		return fail("unexpected %s %s, want POST %s", r.Method, r.URL.Path, path)
	}
	if got := r.Header.Get(auth[0]); got != auth[1] {
		return fail("header %s = %q, want the configured token", auth[0], redact(got))
	}
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		return fail("Content-Type %q, want application/json", ct)
	}
	raw, err := io.ReadAll(r.Body)
	if err != nil && r.Context().Err() != nil {
		return Request{}, false // the client went away mid-request (a stopped run): not the test's failure
	}
	if err != nil {
		return fail("could not read body: %v", err)
	}
	req := Request{Size: len(raw), Header: r.Header.Clone(), Query: r.URL.RawQuery}
	if err := json.Unmarshal(raw, &req.Body); err != nil {
		return fail("body is not a chat completion request: %v", err)
	}
	if err := json.Unmarshal(raw, &req.Raw); err != nil {
		return fail("body is not a JSON object: %v", err)
	}
	if err := validate(req.Body); err != nil {
		return fail("%v", err)
	}
	return req, true
}

func redact(s string) string {
	if len(s) > 12 {
		return s[:12] + "…"
	}
	return s
}
