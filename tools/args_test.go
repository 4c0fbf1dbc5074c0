package tools

import (
	"context"
	"strings"
	"testing"
)

// TestArgumentErrors: bad arguments get an error result that names the
// field and the expected type, never a panic.
func TestArgumentErrors(t *testing.T) {
	r := Default()
	for _, tc := range []struct{ tool, args, want string }{
		{"task_done", `not json`, "arguments are not a valid JSON object"},
		{"task_done", `[1]`, "arguments are not a valid JSON object"},
		{"task_done", `{"state":true}`, "task_done state must be DONE or FAILED."},
		{"task_done", ``, "state is required (DONE or FAILED)"},
		{"task_done", `null`, "state is required (DONE or FAILED)"},
		{"task_done", `{"state":null}`, "state is required (DONE or FAILED)"},
		{"task_done", `{"status":"DONE"}`, `task_done has no argument "status"; did you mean "state"? Its arguments are: state.`},
		{"file_find", `{"query":"a.go"}`, `file_find has no argument "query"; did you mean "query_name"? Its arguments are: query_name, case_sensitive. Call it again with these names.`},
		{"file_read_diff", `{"paths":["a"]}`, `file_read_diff has no argument "paths"; did you mean "path_array"?`},
		{"code_comment", `{"comment":[{"content":"c"}]}`, `code_comment has no argument "comment"; did you mean "comments"?`},
		{"code_search", `{"pattern":"x"}`, `code_search has no argument "pattern"; did you mean "search_text"? Its arguments are: search_text, file_patterns, case_sensitive, use_perl_regexp.`},
		{"code_search", `{"query":"x"}`, `code_search has no argument "query"; did you mean "search_text"?`},
		{"file_find", `{"query_name":"a","lang":"go"}`, `file_find has no argument "lang". Its arguments are: query_name, case_sensitive.`},
		{"file_read", `{"file_path":"a.go","x":1,"lines":"1-3"}`, `file_read has no arguments "lines", "x". Its arguments are: file_path, start_line, end_line.`},
		{"code_comment", `{`, "arguments are not a valid JSON object"},
		{"code_comment", `{"comments":5}`, "comments must be an array of objects, got a number"},
		{"code_comment", `{"comments":[5]}`, "comments[0] must be an object, got a number"},
		{"code_comment", `{"comments":[{"content":"a","severity":["high"]}]}`, "comments[0].severity must be a string, got an array"},
		{"code_comment", `{"comments":[]}`, "'comments' is empty: give at least one comment"},
		{"code_comment", `{"path":"a.go"}`, "comments is required"},
		{"file_read", `"main.go"`, "arguments are not a valid JSON object"},
		{"file_read", `{}`, "file_path is required"},
		{"file_read", `{"file_path":5}`, "file_path must be a string, got a number"},
		{"file_read", `{"file_path":"a.go","start_line":"ten"}`, "start_line must be an integer, got a string"},
		{"file_read", `{"file_path":"a.go","start_line":1.5}`, "start_line must be an integer, got 1.5"},
		{"file_read", `{"file_path":"a.go","end_line":{}}`, "end_line must be an integer, got an object"},
		{"file_read_diff", `{"path_array":{"a":1}}`, "path_array must be an array of strings, got an object"},
		{"file_read_diff", `{"path_array":["a",{}]}`, "path_array must be an array of strings; element 1 is an object"},
		{"file_read_diff", `{"path_array":["a"],"page":"x"}`, "page must be an integer, got a string"},
		{"file_find", `{"query_name":["a"]}`, "query_name must be a string, got an array"},
		{"file_find", `{"query_name":"a","case_sensitive":"maybe"}`, "case_sensitive must be a boolean, got a string"},
		{"code_search", `{"search_text":1}`, "search_text must be a string, got a number"},
		{"code_search", `{"search_text":"a","file_patterns":[true]}`, "file_patterns must be an array of strings; element 0 is a boolean"},
		{"code_search", `{"search_text":"a","use_perl_regexp":2}`, "use_perl_regexp must be a boolean, got a number"},
		{"code_search", `{}`, "search_text is required"},
		{"code_search", `{"search_text":"  "}`, "search_text is blank"},
	} {
		t.Run(tc.tool+" "+tc.args, func(t *testing.T) {
			s := &Session{Source: mapSource{"a.go": "package a\n"}, Diffs: map[string]string{"a": "@@\n"}}
			res := r.Call(context.Background(), PhaseMain, s, tc.tool, tc.args)
			if !res.IsError || !strings.HasPrefix(res.Text, "Error: ") || !strings.Contains(res.Text, tc.want) {
				t.Errorf("got %+v, want an error containing %q", res, tc.want)
			}
		})
	}
}

// TestLenientArguments: forms models often send are accepted.
func TestLenientArguments(t *testing.T) {
	r := Default()
	s := &Session{Source: mapSource{"a.go": "one\ntwo\nthree\n"}, Diffs: map[string]string{"a.go": "@@ -1 +1 @@\n-x\n+y\n"}}
	for _, tc := range []struct{ tool, args, want string }{
		{"file_read", `{"file_path":"a.go","start_line":"2","end_line":2.0}`, "LINE_RANGE: 2-2"},
		{"file_read", `{"file_path":"a.go","start_line":null}`, "LINE_RANGE: 1-3"},
		{"file_read", ` {"file_path":"a.go","start_line":0,"end_line":-4} `, "LINE_RANGE: 1-3"},
		{"file_read_diff", `{"path_array":"[\"a.go\"]"}`, "==== FILE: a.go ===="},
		{"file_find", `{"query_name":"A.GO","case_sensitive":"false"}`, "a.go"},
		{"code_search", `{"search_text":"two","file_patterns":"*.go"}`, "2|two"},
		{"task_done", `{"state":" done "}`, "Task completed successfully."},
	} {
		res := r.Call(context.Background(), PhaseMain, s, tc.tool, tc.args)
		if res.IsError || !strings.Contains(res.Text, tc.want) {
			t.Errorf("%s %s: got %+v, want %q", tc.tool, tc.args, res, tc.want)
		}
	}
}
