package rules

import (
	"strings"
	"testing"
)

func TestParseFileErrors(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"unknown top field", `{"rulez": []}`, `unknown field "rulez"`},
		{"unknown rule field", `{"rules": [{"path": "a", "rule": "b", "merge": true}]}`, `unknown field "merge"`},
		{"wrong type", "{\n\"rules\": [{\"path\": 3, \"rule\": \"b\"}]}", "field rules.path: expected string, got number (line 2)"},
		{"include not array", `{"include": "src/**"}`, "field include: expected []string"},
		{"syntax", "{\n\"rules\": [,]}", "syntax error at line 2"},
		{"empty", ``, "empty file"},
		{"truncated", `{"rules": [`, "truncated JSON"},
		{"trailing", `{} {}`, "unexpected data after the top-level object"},
		{"empty path", `{"rules": [{"path": "", "rule": "b"}]}`, "rules[0].path: empty glob"},
		{"bad glob", `{"rules": [{"path": "x", "rule": "b"}, {"path": "src/[a", "rule": "b"}]}`, `rules[1].path: invalid glob "src/[a"`},
		{"empty rule", `{"rules": [{"path": "**", "rule": "  "}]}`, "rules[0].rule: empty"},
		{"bad exclude", `{"exclude": ["{a,b"]}`, "exclude[0]: invalid glob"},
		{"bad include", `{"include": [""]}`, "include[0]: empty glob"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseFile(".ocr/rule.json", []byte(c.in))
			if err == nil {
				t.Fatalf("ParseFile(%q) succeeded, want error containing %q", c.in, c.want)
			}
			if msg := err.Error(); !strings.Contains(msg, c.want) || !strings.HasPrefix(msg, "rule file .ocr/rule.json: ") {
				t.Errorf("error = %q, want it to name the file and contain %q", msg, c.want)
			}
		})
	}
}

func TestParseFileOK(t *testing.T) {
	f, err := ParseFile("r.json", []byte(`{"include": ["src/**"], "exclude": [], "rules": [{"path": "**/*.{ts,tsx}", "rule": "x", "merge_system_rule": true}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Include) != 1 || len(f.Rules) != 1 || !f.Rules[0].MergeSystemRule || f.Rules[0].Path != "**/*.{ts,tsx}" {
		t.Errorf("ParseFile = %+v", f)
	}
}

func TestLoadReportsFlagFileErrors(t *testing.T) {
	_, err := Load(Options{RuleFile: []byte(`{"rules": 1}`), RuleFileName: "custom.json"})
	if err == nil || !strings.Contains(err.Error(), "rule file custom.json: field rules") {
		t.Errorf("Load error = %v, want it to name custom.json and the field", err)
	}
	_, err = Load(Options{RepoReader: repo(map[string]string{".ocr/rule.json": `{"rules": [{}]}`})})
	if err == nil || !strings.Contains(err.Error(), "rule file .ocr/rule.json: rules[0].path") {
		t.Errorf("Load error = %v, want it to name .ocr/rule.json", err)
	}
}
