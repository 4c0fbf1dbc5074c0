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
