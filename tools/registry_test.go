package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
)

func TestDefaultRegistry(t *testing.T) {
	r := Default()
	var plan, main []string
	for _, e := range r.Entries(PhasePlan) {
		plan = append(plan, e.Name)
	}
	for _, e := range r.Entries(PhaseMain) {
		main = append(main, e.Name)
	}
	if got, want := strings.Join(plan, ","), "file_read_diff,file_find,code_search"; got != want {
		t.Errorf("plan tools = %s, want %s", got, want)
	}
	if got, want := strings.Join(main, ","), "task_done,code_comment,file_read,file_read_diff,file_find,code_search"; got != want {
		t.Errorf("main tools = %s, want %s", got, want)
	}
}

// TestSchemaSize pins the budget: the six definitions, as sent to the
// model on every turn, stay under 3,500 characters of JSON.
func TestSchemaSize(t *testing.T) {
	total := 0
	for _, e := range Default().All() {
		var buf bytes.Buffer
		if err := json.Compact(&buf, mustJSON(t, e.Definition)); err != nil {
			t.Fatal(err)
		}
		total += buf.Len()
		if len(e.Definition.Description) > 200 {
			t.Errorf("%s: description has %d characters; keep it short", e.Name, len(e.Definition.Description))
		}
	}
	t.Logf("six definitions: %d characters of JSON", total)
	if total >= 3500 {
		t.Errorf("definitions take %d characters of JSON, want < 3500", total)
	}
}

// TestSchemaOmitsThinking: thinking is runtime-only (spec).
func TestSchemaOmitsThinking(t *testing.T) {
	e, _ := Default().lookup("code_comment")
	if strings.Contains(string(e.Definition.Parameters), "thinking") {
		t.Error("code_comment schema offers thinking; it must stay off the schema")
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestCallNotFound(t *testing.T) {
	r := Default()
	s := &Session{}
	for _, tc := range []struct {
		phase Phase
		name  string
	}{
		{PhasePlan, "task_done"},
		{PhasePlan, "code_comment"},
		{PhasePlan, "file_read"},
		{PhaseMain, "shell"},
		{PhaseMain, ""},
	} {
		res := r.Call(context.Background(), tc.phase, s, tc.name, `{}`)
		if res.Text != NotFoundText || !res.IsError {
			t.Errorf("%s in %s: got %+v, want the Tool not found text", tc.name, tc.phase, res)
		}
	}
	if res := r.CallJSON(context.Background(), s, "shell", `{}`); res.Text != NotFoundText {
		t.Errorf("CallJSON(shell) = %q", res.Text)
	}
}

func TestCallSkipsAfterThreeFailures(t *testing.T) {
	r := Default()
	s := &Session{Source: mapSource{"a.go": "package a\n"}}
	ctx := context.Background()
	call := func(args string) Result { return r.Call(ctx, PhaseMain, s, "file_read", args) }
	call(`{"file_path":"x.go"}`)
	if res := call(`{"file_path":"a.go"}`); res.IsError {
		t.Fatalf("good read failed: %s", res.Text)
	}
	call(`{"file_path":"x.go"}`)
	call(`{"file_path":"y.go"}`)
	third := call(`{"file_path":"z.go"}`)
	if !strings.Contains(third.Text, "disabled for the rest of this task") {
		t.Errorf("third failure does not say the tool is now disabled: %q", third.Text)
	}
	after := call(`{"file_path":"a.go"}`)
	if !after.IsError || !strings.HasPrefix(after.Text, "Error: file_read failed 3 times in a row") {
		t.Errorf("call after three failures = %q", after.Text)
	}
	if res := r.Call(ctx, PhaseMain, s, "file_find", `{"query_name":"a"}`); res.IsError {
		t.Errorf("another tool is affected: %q", res.Text)
	}
}

func TestCallRecoversPanic(t *testing.T) {
	r := Default()
	s := &Session{Source: panicSource{}}
	res := r.Call(context.Background(), PhaseMain, s, "file_read", `{"file_path":"a.go"}`)
	if !res.IsError || !strings.Contains(res.Text, "failed unexpectedly") {
		t.Errorf("panic result = %+v", res)
	}
}

func TestList(t *testing.T) {
	var b bytes.Buffer
	if err := List(&b, Default()); err != nil {
		t.Fatal(err)
	}
	golden(t, "list", b.String())
}

// countingSource counts ListFiles calls.
type countingSource struct {
	mapSource
	lists *int
}

func (c countingSource) ListFiles(ctx context.Context) ([]string, error) {
	*c.lists++
	return c.mapSource.ListFiles(ctx)
}

// TestCachedListsOnce: a wrapped foreign Source is listed once for every
// session of the run; an unwrapped one once per session.
func TestCachedListsOnce(t *testing.T) {
	n := 0
	src := countingSource{mapSource{"a/b.go": ""}, &n}
	shared := Cached(src)
	r := Default()
	for i := 0; i < 3; i++ {
		s := &Session{Source: shared}
		for j := 0; j < 2; j++ {
			if res := r.Call(context.Background(), PhaseMain, s, "file_find", `{"query_name":"b.go"}`); res.Text != "a/b.go" {
				t.Fatalf("file_find = %q", res.Text)
			}
		}
	}
	if n != 1 {
		t.Errorf("Cached: listed %d times for 3 sessions, want 1", n)
	}
	n = 0
	s := &Session{Source: src}
	r.Call(context.Background(), PhaseMain, s, "file_find", `{"query_name":"b"}`)
	r.Call(context.Background(), PhaseMain, s, "file_find", `{"query_name":"b"}`)
	if n != 1 {
		t.Errorf("plain foreign Source: listed %d times in one session, want 1", n)
	}
	if Cached(shared) != shared {
		t.Error("Cached wraps an already cached Source again")
	}
}
