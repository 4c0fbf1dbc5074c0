package tools

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ocr-ci/ocr/tools/internal/toolargs"
)

//go:embed tools.json
var defaultJSON []byte

// Phase is a stage of a review task; each offers its own tools.
type Phase int

// The two phases: plan is read-only, main offers all six tools.
const (
	PhasePlan Phase = iota
	PhaseMain
)

// String names the phase.
func (p Phase) String() string {
	if p == PhasePlan {
		return "plan"
	}
	return "main"
}

// Tool is one implementation: the name the registry refers to, the
// arguments it reads (a tools file may offer only these, with these types)
// and the function that answers a call.
type Tool struct {
	Name   string
	Params []Param
	Run    func(ctx context.Context, s *Session, args json.RawMessage) Result
}

// Param is one argument an implementation reads: its name and the JSON
// Schema type a tools file must declare for it.
type Param struct {
	Name string
	Type string // "string", "integer", "boolean" or "array"
}

// Function is an OpenAI function definition as offered to the model.
type Function struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

// Entry is one element of tools.json: a tool, the phases that offer it and
// the definition the model sees.
type Entry struct {
	Name       string   `json:"name"`
	PlanTask   bool     `json:"plan_task"`
	MainTask   bool     `json:"main_task"`
	Definition Function `json:"definition"`

	params toolargs.Schema // what Definition.Parameters says, checked by Load
}

// In reports whether the entry is offered in phase p.
func (e Entry) In(p Phase) bool {
	if p == PhasePlan {
		return e.PlanTask
	}
	return e.MainTask
}

// Registry is the list of tools in effect for a run. It is immutable and
// safe for concurrent use.
type Registry struct {
	entries []Entry
	impl    map[string]Tool
}

// builtins is the explicit list of implementations; tools.json entries
// refer to them by name.
func builtins() []Tool {
	return []Tool{
		{Name: "task_done", Run: taskDone, Params: []Param{{Name: "state", Type: "string"}}},
		{Name: "code_comment", Run: codeComment, Params: []Param{{Name: "path", Type: "string"},
			{Name: "comments", Type: "array"}}},
		{Name: "file_read", Run: fileRead, Params: []Param{{Name: "file_path", Type: "string"},
			{Name: "start_line", Type: "integer"}, {Name: "end_line", Type: "integer"}}},
		{Name: "file_read_diff", Run: fileReadDiff, Params: []Param{{Name: "path_array", Type: "array"}, {Name: "page", Type: "integer"}}},
		{Name: "file_find", Run: fileFind, Params: []Param{{Name: "query_name", Type: "string"}, {Name: "case_sensitive", Type: "boolean"}}},
		{Name: "code_search", Run: codeSearch, Params: []Param{{Name: "search_text", Type: "string"}, {Name: "file_patterns", Type: "array"},
			{Name: "case_sensitive", Type: "boolean"}, {Name: "use_perl_regexp", Type: "boolean"}}},
	}
}

// Names lists the names that have an implementation, in registry order.
func Names() []string {
	var out []string
	for _, t := range builtins() {
		out = append(out, t.Name)
	}
	return out
}

// Default returns the registry of the embedded tools.json.
func Default() *Registry {
	r, err := Load(defaultJSON)
	if err != nil {
		panic(fmt.Sprintf("embedded tools.json is invalid: %v", err)) // caught by TestDefaultRegistry
	}
	return r
}

// Entries returns what the model is offered in phase p, in file order.
func (r *Registry) Entries(p Phase) []Entry {
	var out []Entry
	for _, e := range r.entries {
		if e.In(p) {
			out = append(out, e)
		}
	}
	return out
}

// All returns every entry of the registry, in file order.
func (r *Registry) All() []Entry { return append([]Entry(nil), r.entries...) }

// Call runs the named tool with the model's raw JSON arguments. A tool that
// is not offered in phase p answers NotFoundText; a tool that failed three
// times in a row in this session answers that it is disabled. Call never
// panics: a panicking tool becomes an error result.
func (r *Registry) Call(ctx context.Context, p Phase, s *Session, name, args string) Result {
	e, ok := r.lookup(name)
	if !ok || !e.In(p) {
		return errText(NotFoundText)
	}
	return r.run(ctx, s, e, args)
}

// CallJSON runs the named tool whatever its phases, as `ocr tools call`
// does; only a name missing from the registry answers NotFoundText.
func (r *Registry) CallJSON(ctx context.Context, s *Session, name, args string) Result {
	e, ok := r.lookup(name)
	if !ok {
		return errText(NotFoundText)
	}
	return r.run(ctx, s, e, args)
}

// Has reports whether the registry holds a tool of that name.
func (r *Registry) Has(name string) bool {
	_, ok := r.lookup(name)
	return ok
}

// lookup finds an entry by name, ignoring surrounding space.
func (r *Registry) lookup(name string) (Entry, bool) {
	name = strings.TrimSpace(name)
	for _, e := range r.entries {
		if e.Name == name {
			return e, true
		}
	}
	return Entry{}, false
}

// run checks the argument names against e's schema, calls the
// implementation and keeps the session's failure streaks.
func (r *Registry) run(ctx context.Context, s *Session, e Entry, args string) (res Result) {
	name := e.Name
	if s == nil {
		s = &Session{}
	}
	if s.Skipped(name) {
		return skippedResult(name)
	}
	defer func() {
		if v := recover(); v != nil {
			res = errorf("%s failed unexpectedly (%v); try other arguments or another tool", name, v)
		}
		s.record(name, res.IsError)
		if res.IsError && s.Skipped(name) {
			res.Text += fmt.Sprintf("\n%s has now failed %d times in a row and is disabled for the rest of this task.", name, maxFailures)
		}
	}()
	if err := e.params.Check(name, args); err != nil {
		return errorf("%s", err)
	}
	return r.impl[name].Run(ctx, s, json.RawMessage(args))
}
