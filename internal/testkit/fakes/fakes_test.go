package fakes

import (
	"net/http/httptest"
	"strings"
	"testing"
)

func TestRecorderReportsUnusedRoutes(t *testing.T) {
	r := NewRecorder(t)
	r.Expect("GET /a", "POST /b")
	r.Add("GET /a")
	if got := r.Unused(); len(got) != 1 || got[0] != "POST /b" {
		t.Errorf("Unused = %v, want [POST /b]", got)
	}
	r.Add("POST /b")
	r.Reset()
	if got := r.Unused(); len(got) != 0 {
		t.Errorf("a route requested before Reset still counts as used: %v", got)
	}
	if n := Writes(map[string]int{"GET /a": 2, "POST /b": 1, "PATCH /c": 2}); n != 3 {
		t.Errorf("Writes = %d, want 3", n)
	}
}

func TestDecodeRejectsUnknownFields(t *testing.T) {
	ft := &fakeTB{TB: t}
	req := httptest.NewRequestWithContext(t.Context(), "POST", "/x", strings.NewReader(`{"body":"b","position":1}`))
	var v struct {
		Body string `json:"body"`
	}
	if Decode(ft, req, &v) || !ft.failed {
		t.Error("an unknown field was accepted")
	}
}

// fakeTB records Errorf instead of failing.
type fakeTB struct {
	testing.TB
	failed bool
}

func (f *fakeTB) Errorf(string, ...any) { f.failed = true }
func (f *fakeTB) Helper()               {}
