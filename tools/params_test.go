package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// TestParamsAreRead: every argument an implementation declares is really
// read by it, with a type check: sent as an object (a wrong type for every
// declared type), the call fails naming that argument. So the declared
// list, which a tools file and the model's arguments are checked against,
// cannot drift from the code.
func TestParamsAreRead(t *testing.T) {
	r := Default()
	valid := map[string]map[string]any{
		"task_done":      {"state": "DONE"},
		"code_comment":   {"comments": []any{map[string]any{"content": "c", "existing_code": "x"}}},
		"file_read":      {"file_path": "a.go"},
		"file_read_diff": {"path_array": []any{"a.go"}},
		"file_find":      {"query_name": "a"},
		"code_search":    {"search_text": "one"},
	}
	for _, tool := range builtins() {
		for _, p := range tool.Params {
			args := map[string]any{}
			for k, v := range valid[tool.Name] {
				args[k] = v
			}
			args[p.Name] = map[string]any{"wrong": "type"}
			raw, _ := json.Marshal(args)
			s := &Session{Source: mapSource{"a.go": "one\n"}, Diffs: map[string]string{"a.go": "@@\n"}}
			res := r.Call(context.Background(), PhaseMain, s, tool.Name, string(raw))
			if !res.IsError || !strings.Contains(res.Text, p.Name) {
				t.Errorf("%s: %s sent as an object: %q; want an error naming it", tool.Name, p.Name, res.Text)
			}
		}
	}
}

// TestSchemaMatchesImplementation: the embedded tools.json offers exactly
// the arguments each implementation reads, with the same types.
func TestSchemaMatchesImplementation(t *testing.T) {
	r := Default()
	for _, tool := range builtins() {
		e, ok := r.lookup(tool.Name)
		if !ok {
			t.Fatalf("%s is not in tools.json", tool.Name)
		}
		var want []string
		for _, p := range tool.Params {
			want = append(want, p.Name)
		}
		if got := e.params.Names(); !slices.Equal(got, want) {
			t.Errorf("%s: tools.json offers %s, the implementation reads %s", tool.Name, got, want)
		}
	}
}

// TestEmbeddedSchemasCompile: the embedded definitions are valid JSON
// Schema documents (checked here, at test time, so the product binary
// carries no schema compiler).
func TestEmbeddedSchemasCompile(t *testing.T) {
	for _, e := range Default().All() {
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(e.Definition.Parameters))
		if err != nil {
			t.Fatalf("%s: %v", e.Name, err)
		}
		c := jsonschema.NewCompiler()
		if err := c.AddResource("mem:///"+e.Name+".json", doc); err != nil {
			t.Fatalf("%s: %v", e.Name, err)
		}
		if _, err := c.Compile("mem:///" + e.Name + ".json"); err != nil {
			t.Errorf("%s: parameters do not compile as JSON Schema: %v", e.Name, err)
		}
	}
}

// TestArgsCheckedForEveryCaller: unknown names and missing required
// arguments are refused alike through Call (the model) and CallJSON
// (`ocr tools call`), and count as failures of the tool.
func TestArgsCheckedForEveryCaller(t *testing.T) {
	r := Default()
	for _, args := range []string{`{"query":"a"}`, `{}`} {
		s := &Session{Source: mapSource{"a.go": ""}}
		viaModel := r.Call(context.Background(), PhasePlan, s, "file_find", args)
		viaCLI := r.CallJSON(context.Background(), &Session{Source: mapSource{"a.go": ""}}, "file_find", args)
		if !viaModel.IsError || viaModel.Text != viaCLI.Text {
			t.Errorf("%s: model got %q, tools call got %q", args, viaModel.Text, viaCLI.Text)
		}
		r.Call(context.Background(), PhasePlan, s, "file_find", args)
		r.Call(context.Background(), PhasePlan, s, "file_find", args)
		if !s.Skipped("file_find") {
			t.Errorf("%s: three refused calls in a row do not count as failures", args)
		}
	}
}

// TestOverrideSchemaIsEnforced: a tools file that drops an argument from
// the schema makes it unknown to the model; one that makes an argument
// required makes it required.
func TestOverrideSchemaIsEnforced(t *testing.T) {
	doc := "[" + entryJSON("task_done", false, true, `{"type":"object","properties":{"state":{"type":"string"}}}`) + "," +
		entryJSON("code_comment", false, true, `{"type":"object","properties":{"comments":{"type":"array"}}}`) + "," +
		entryJSON("file_read", false, true, `{"type":"object","properties":{"file_path":{"type":"string"},"start_line":{"type":"integer"}},"required":["file_path","start_line"]}`) + "]"
	r, err := Load([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	s := &Session{Source: mapSource{"a.go": "one\n"}}
	for args, want := range map[string]string{
		`{"file_path":"a.go"}`:                             "Error: start_line is required (an integer)",
		`{"file_path":"a.go","start_line":1,"end_line":1}`: `Error: file_read has no argument "end_line". Its arguments are: file_path, start_line. Call it again with these names.`,
		`{"file_path":"a.go","start_line":1}`:              "1|one",
	} {
		if res := r.Call(context.Background(), PhaseMain, s, "file_read", args); !strings.Contains(res.Text, want) {
			t.Errorf("%s: %q, want %q", args, res.Text, want)
		}
	}
	if res := r.Call(context.Background(), PhaseMain, s, "task_done", `{}`); res.IsError || !res.Done {
		t.Errorf("task_done without state, where the tools file does not require it: %+v", res)
	}
}

// FuzzCheckArgs: the argument check never panics, and refuses only with
// an error that names an argument (Call answers it as "Error: ...", see
// TestArgumentErrors).
func FuzzCheckArgs(f *testing.F) {
	for _, seed := range []string{``, `{}`, `null`, `{"state":"DONE"}`, `{"query":"a"}`, `{"":1}`, `{"a":1,"b":2}`, `[1]`, `{"state":null}`} {
		f.Add(seed)
	}
	entries := Default().All()
	f.Fuzz(func(t *testing.T, args string) {
		for _, e := range entries {
			err := e.params.Check(e.Name, args)
			if err != nil && !strings.Contains(err.Error(), "argument") && !strings.Contains(err.Error(), "is required") {
				t.Fatalf("%s %q: %v", e.Name, args, err)
			}
		}
	})
}

// BenchmarkArgCheck: the cost of checking argument names on a file_read
// call answered from memory, as a share of the whole call.
func BenchmarkArgCheck(b *testing.B) {
	r := Default()
	e, _ := r.lookup("file_read")
	s := &Session{Source: mapSource{"a.go": strings.Repeat("line\n", 300)}}
	args := `{"file_path":"a.go","start_line":10,"end_line":200}`
	b.Run("check", func(b *testing.B) {
		for b.Loop() {
			if e.params.Check("file_read", args) != nil {
				b.Fatal("refused")
			}
		}
	})
	b.Run("call", func(b *testing.B) {
		for b.Loop() {
			if res := r.Call(context.Background(), PhaseMain, s, "file_read", args); res.IsError {
				b.Fatal(res.Text)
			}
		}
	})
}
