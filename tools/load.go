package tools

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/ocr-ci/ocr/tools/internal/toolargs"
)

// Load parses a tools.json document (the embedded one or a --tools
// override) and checks it: every entry must name an implemented tool, once;
// its definition must carry the same name and, as parameters, an object
// schema offering only arguments the implementation reads, with the types
// it reads; and the main phase must keep task_done and code_comment.
// Errors name the offending entry. The schema's property names and
// required list are then enforced on every call (see toolargs.Schema.Check).
func Load(data []byte) (*Registry, error) {
	var entries []Entry
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&entries); err != nil {
		return nil, fmt.Errorf("tools file is not a JSON array of {name, plan_task, main_task, definition}: %w", err)
	}
	impl := map[string]Tool{}
	for _, t := range builtins() {
		impl[t.Name] = t
	}
	seen := map[string]bool{}
	for i := range entries {
		e := &entries[i]
		if err := checkEntry(e, impl, seen); err != nil {
			return nil, fmt.Errorf("tools file entry %d (%q): %w", i+1, e.Name, err)
		}
	}
	r := &Registry{entries: entries, impl: impl}
	for _, need := range []string{"task_done", "code_comment"} {
		if e, ok := r.lookup(need); !ok || !e.MainTask {
			return nil, fmt.Errorf("tools file: the main phase has no %q entry; the review cannot finish without it, so keep it with \"main_task\": true", need)
		}
	}
	return r, nil
}

// checkEntry validates one entry and fills an empty definition name.
func checkEntry(e *Entry, impl map[string]Tool, seen map[string]bool) error {
	if _, ok := impl[e.Name]; !ok {
		return fmt.Errorf("no tool of that name is implemented; a tools file can only remove or re-describe %s", strings.Join(Names(), ", "))
	}
	if seen[e.Name] {
		return errors.New("the tool is listed twice; keep one entry")
	}
	seen[e.Name] = true
	switch e.Definition.Name {
	case "":
		e.Definition.Name = e.Name
	case e.Name:
	default:
		return fmt.Errorf("definition.name %q differs from name; make them equal", e.Definition.Name)
	}
	p, err := toolargs.ParseSchema(e.Definition.Parameters, schemaParams(impl[e.Name].Params))
	if err != nil {
		return fmt.Errorf("definition.parameters: %w", err)
	}
	e.params = p
	return nil
}

// schemaParams converts a tool's Params for the schema check.
func schemaParams(ps []Param) []toolargs.Param {
	out := make([]toolargs.Param, len(ps))
	for i, p := range ps {
		out[i] = toolargs.Param(p)
	}
	return out
}
