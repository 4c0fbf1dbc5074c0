package tools

import (
	"encoding/json"
	"strings"
	"testing"
)

// entryJSON builds one tools.json entry.
func entryJSON(name string, plan, main bool, params string) string {
	return `{"name":"` + name + `","plan_task":` + boolJSON(plan) + `,"main_task":` + boolJSON(main) +
		`,"definition":{"name":"` + name + `","description":"d","parameters":` + params + `}}`
}

func boolJSON(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

const objSchema = `{"type":"object","properties":{}}`

func TestLoadOverride(t *testing.T) {
	doc := "[" + entryJSON("task_done", false, true, objSchema) + "," +
		entryJSON("code_comment", false, true, objSchema) + "]"
	r, err := Load([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(r.Entries(PhasePlan)); n != 0 {
		t.Errorf("plan offers %d tools, want 0", n)
	}
	if n := len(r.Entries(PhaseMain)); n != 2 {
		t.Errorf("main offers %d tools, want 2", n)
	}
}

func TestLoadRedescribe(t *testing.T) {
	var entries []Entry
	if err := json.Unmarshal(defaultJSON, &entries); err != nil {
		t.Fatal(err)
	}
	entries[2].Definition.Description = "Always read 30 lines around the change."
	data, _ := json.Marshal(entries)
	r, err := Load(data)
	if err != nil {
		t.Fatal(err)
	}
	e, _ := r.lookup("file_read")
	if e.Definition.Description != "Always read 30 lines around the change." {
		t.Errorf("description = %q", e.Definition.Description)
	}
}

func TestLoadErrors(t *testing.T) {
	td := entryJSON("task_done", false, true, objSchema)
	cc := entryJSON("code_comment", false, true, objSchema)
	for _, tc := range []struct{ name, doc, want string }{
		{"not json", `{`, "not a JSON array"},
		{"object", `{"name":"x"}`, "not a JSON array"},
		{"unknown field", `[{"name":"task_done","main":true}]`, `unknown field "main"`},
		{"unknown tool", "[" + td + "," + cc + "," + entryJSON("shell", true, true, objSchema) + "]", `entry 3 ("shell"): no tool of that name is implemented`},
		{"duplicate", "[" + td + "," + cc + "," + td + "]", `entry 3 ("task_done"): the tool is listed twice`},
		{"name mismatch", `[{"name":"task_done","main_task":true,"definition":{"name":"done","parameters":` + objSchema + `}}]`, `entry 1 ("task_done"): definition.name "done" differs`},
		{"no parameters", `[{"name":"task_done","main_task":true,"definition":{"name":"task_done"}}]`, `entry 1 ("task_done"): definition.parameters: missing`},
		{"not object type", "[" + entryJSON("task_done", false, true, `{"type":"string"}`) + "]", `entry 1 ("task_done"): definition.parameters: must have "type": "object"`},
		{"bad schema", "[" + entryJSON("task_done", false, true, `{"type":"object","properties":{"state":{"type":"strin"}}}`) + "]", `entry 1 ("task_done"): definition.parameters: property "state" has type strin, but the tool reads string`},
		{"remote ref", "[" + entryJSON("task_done", false, true, `{"type":"object","properties":{"state":{"$ref":"http://example.com/s.json"}}}`) + "]", `entry 1 ("task_done"): definition.parameters: external reference "http://example.com/s.json" is not allowed`},
		{"unread property", "[" + entryJSON("file_find", true, true, `{"type":"object","properties":{"query":{"type":"string"}}}`) + "," + td + "," + cc + "]", `entry 1 ("file_find"): definition.parameters: property "query" is not read by this tool, so the model's value would be ignored; its arguments are query_name, case_sensitive`},
		{"required not declared", "[" + entryJSON("task_done", false, true, `{"type":"object","properties":{},"required":["state"]}`) + "," + cc + "]", `entry 1 ("task_done"): definition.parameters: required names "state", which is not among the properties`},
		{"properties not an object", "[" + entryJSON("task_done", false, true, `{"type":"object","properties":[]}`) + "," + cc + "]", `"properties" must be an object`},
		{"property declared twice", "[" + entryJSON("task_done", false, true, `{"type":"object","properties":{"state":{},"state":{}}}`) + "," + cc + "]", `property "state" is declared twice`},
		{"no task_done", "[" + cc + "]", `no "task_done" entry`},
		{"task_done plan only", "[" + entryJSON("task_done", true, false, objSchema) + "," + cc + "]", `no "task_done" entry`},
		{"no code_comment", "[" + td + "]", `no "code_comment" entry`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load([]byte(tc.doc))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Load error = %v, want it to contain %q", err, tc.want)
			}
		})
	}
}
