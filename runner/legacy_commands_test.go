package runner

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/internal/testkit/llmtest"
	"github.com/ocr-ci/ocr/internal/testkit/logtexttest"
	"github.com/ocr-ci/ocr/reporters"
)

// legacyNames are file names carrying the legacy "##[command]" form, which
// the Actions runner honours anywhere on a line.
var legacyNames = []string{
	"a ##[set-output name=status;]complete.go",
	"b ##[stop-commands]x.go",
	"c #\u200b#[add-mask]zw.go",
	"d\n##[error]newline.go",
}

// legacyText is model text carrying the same.
const legacyText = "Nil dereference. ##[stop-commands]x\n##[set-output name=status;]complete\n" +
	"see #\u200d#[warning]hidden and\n::error::pwned"

func legacyRepo(t *testing.T) *testRepo {
	r := newTestRepo(t)
	r.write("store.go", "package store\n")
	r.commit("root")
	for _, n := range legacyNames {
		r.write(n, "package x\n\n// ##[set-output name=x;]y\nvar X = 1\n")
	}
	r.write("store.go", "package store\n\nvar P *int\n\nvar V = *P\n")
	r.commit("add")
	return r
}

// checkInert fails when a line of out could be a workflow command.
func checkInert(t *testing.T, what, out string) {
	t.Helper()
	if l := logtexttest.CommandLine(out); l != "" {
		t.Errorf("%s: line %q is a workflow command:\n%s", what, l, out)
	}
}

func TestPreviewPrintsNoLegacyCommand(t *testing.T) {
	t.Parallel()
	r := legacyRepo(t)
	for _, format := range []string{"text", "json"} {
		code, out, errs := run(t, "review", "--repo", r.dir, "--commit", "HEAD", "--preview", "--format", format)
		if code != reporters.ExitOK {
			t.Fatalf("%s: exit %d: %s", format, code, errs)
		}
		checkInert(t, "preview "+format+" stdout", out)
		checkInert(t, "preview "+format+" stderr", errs)
		if format == "json" {
			checkNamesInJSON(t, out)
		}
	}
}

// checkNamesInJSON: the escape keeps the JSON's meaning, names intact.
func checkNamesInJSON(t *testing.T, out string) {
	t.Helper()
	var p struct{ Files []struct{ Path string } }
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	got := map[string]bool{}
	for _, f := range p.Files {
		got[f.Path] = true
	}
	for _, n := range legacyNames {
		if !got[n] {
			t.Errorf("name %q is missing or changed in the JSON: %v", n, got)
		}
	}
}

func TestReviewReportsPrintNoLegacyCommand(t *testing.T) {
	t.Parallel()
	r := legacyRepo(t)
	for _, format := range []string{"text", "json"} {
		srv := llmtest.New(t, llmtest.Script{Match: []string{"store.go"}, Answers: []llmtest.Answer{
			llmtest.Calls(llmtest.Tool("code_comment", map[string]any{"comments": []map[string]string{{
				"content": legacyText, "existing_code": "var V = *P", "category": "bug", "severity": "high",
				"suggestion": "##[set-output name=fix;]x"}}}), llmtest.Done()),
		}})
		srv.Handle(func(llmtest.Request) llmtest.Answer { return llmtest.Calls(llmtest.Done()) })
		useLLM(t, srv)
		code, out, errs := run(t, "review", "--repo", r.dir, "--commit", "HEAD", "--format", format, "--no-filter")
		if code != reporters.ExitOK {
			t.Fatalf("%s: exit %d: %s", format, code, errs)
		}
		if !strings.Contains(out, "Nil dereference") {
			t.Fatalf("%s: the finding is missing:\n%s", format, out)
		}
		checkInert(t, format+" report", out)
		checkInert(t, format+" stderr", errs)
		if format == "json" {
			checkNamesInJSON(t, out)
		}
	}
}

func TestToolsCallInActionsPrintsNoLegacyCommand(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	r.write("a.txt", "##[stop-commands]x\nx ##[set-output name=a;]b\n#\u200b#[error]c\n")
	r.commit("one")
	setVar(t, "GITHUB_ACTIONS", "true")
	code, out, errs := run(t, "tools", "call", "file_read", `{"file_path":"a.txt"}`, "--repo", r.dir, "--commit", "HEAD")
	if code != reporters.ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	checkInert(t, "tools call", strings.Join(lines[1:len(lines)-1], "\n")) // inside the stop-commands fence
	if !strings.Contains(out, `##\u005bstop-commands]x`) {
		t.Errorf("the content is not shown escaped:\n%s", out)
	}
}
