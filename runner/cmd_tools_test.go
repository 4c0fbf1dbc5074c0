package runner

import (
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/reporters"
)

func TestToolsCallInActionsStopsCommands(t *testing.T) {
	t.Parallel()
	env := testEnv{}
	r := newTestRepo(t)
	r.write("a.txt", "::error file=x::pwned\n")
	r.commit("one")
	env.set("GITHUB_ACTIONS", "true")
	code, out, errs := env.run(t, "tools", "call", "file_read", `{"file_path":"a.txt"}`, "--repo", r.dir, "--commit", "HEAD")
	if code != reporters.ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	first, last := lines[0], lines[len(lines)-1]
	token, ok := strings.CutPrefix(first, "::stop-commands::")
	if !ok || len(token) < 16 || last != "::"+token+"::" {
		t.Fatalf("output is not fenced by stop-commands:\n%s", out)
	}
	if !strings.Contains(out, "1|::error file=x::pwned") {
		t.Errorf("the tool output is missing:\n%s", out)
	}
}

func TestToolsCallOutsideActionsIsPlain(t *testing.T) {
	t.Parallel()
	env := testEnv{}
	r := newTestRepo(t)
	r.write("a.txt", "hello\n")
	r.commit("one")
	code, out, _ := env.run(t, "tools", "call", "file_read", `{"file_path":"a.txt"}`, "--repo", r.dir, "--commit", "HEAD")
	if code != reporters.ExitOK || strings.Contains(out, "stop-commands") || !strings.HasPrefix(out, "File: a.txt") {
		t.Errorf("exit %d, output:\n%s", code, out)
	}
}

// TestToolsCallMirrorsTheModel: `ocr tools call` answers what the model
// would get, and a call the model would be told failed exits non-zero: an
// unknown tool, an unknown argument name, a missing required argument.
func TestToolsCallMirrorsTheModel(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	r.write("a.txt", "hello\n")
	r.commit("one")
	for _, tc := range []struct{ tool, args, out, errs string }{
		{"no_such_tool", `{}`, "Error: Tool not found.", `unknown tool "no_such_tool"; the tools are: task_done, code_comment, file_read, file_read_diff, file_find, code_search`},
		{"file_find", `{"query":"a.txt"}`, `Error: file_find has no argument "query"; did you mean "query_name"? Its arguments are: query_name, case_sensitive.`, "file_find answered with an error"},
		{"task_done", `{}`, "Error: state is required (DONE or FAILED)", "task_done answered with an error"},
	} {
		code, out, errs := run(t, "tools", "call", tc.tool, tc.args, "--repo", r.dir, "--commit", "HEAD")
		if code != reporters.ExitUsage || !strings.HasPrefix(out, tc.out) || !strings.Contains(errs, tc.errs) {
			t.Errorf("%s %s: exit %d, stdout %q, stderr %q", tc.tool, tc.args, code, out, errs)
		}
	}
	code, out, _ := run(t, "tools", "call", "file_find", `{"query_name":"a.txt"}`, "--repo", r.dir, "--commit", "HEAD")
	if code != reporters.ExitOK || out != "a.txt\n" {
		t.Errorf("a good call: exit %d, stdout %q", code, out)
	}
}

// TestToolsListShowsArguments: `ocr tools list` shows each tool's
// arguments as the model is offered them.
func TestToolsListShowsArguments(t *testing.T) {
	t.Parallel()
	code, out, errs := run(t, "tools", "list")
	if code != reporters.ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"\n  query_name ", "\n  state ", "required; DONE or FAILED", "\n  file_patterns "} {
		if !strings.Contains(out, want) {
			t.Errorf("tools list lacks %q:\n%s", want, out)
		}
	}
}
