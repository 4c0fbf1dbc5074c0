package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/internal/llm/llmtest"
	"github.com/ocr-ci/ocr/tools"
	openai "github.com/sashabaranov/go-openai"
)

// Issue 23, item 10: a model that modelIgnores the ambiguity feedback and
// sends the very same quote again was answered the same again, until the
// request cap. The commit has eleven files, each adding two functions that
// share their lines, so every quote the model sends matches twice.

const stubbornFiles = 11

func stubbornChange() (base, head map[string]string) {
	base, head = map[string]string{}, map[string]string{}
	for i := range stubbornFiles {
		p := fmt.Sprintf("svc/f%02d.go", i)
		base[p] = "package svc\n"
		head[p] = fmt.Sprintf("package svc\n\nfunc A%[1]d(x int) error {\n\tif x < 0 {\n\t\treturn errBad\n\t}\n\tlog.Print(x)\n\treturn nil\n}\n\n"+
			"func B%[1]d(y int) error {\n\tif y > 10 {\n\t\treturn errBad\n\t}\n\tlog.Print(y)\n\treturn nil\n}\n", i)
	}
	return base, head
}

// How the scripted model answers a result that asks it to send an
// ambiguous comment again.
const (
	modelIgnores  = iota // it finishes (the run without feedback costs the same)
	modelResends         // it sends the same comment again, alone, then finishes
	modelWithDone        // it sends the same comment again with task_done, as the result invites
)

// stubbornModel plans in one sentence, reads the first file of its group,
// comments on two lines of every file (each quote matches twice), and
// answers the request to send a comment again as mode says; when nothing
// is ambiguous, it finishes.
func stubbornModel(mode int) func(llmtest.Request) llmtest.Answer {
	return func(r llmtest.Request) llmtest.Answer {
		if strings.Contains(r.Body.Messages[0].Content, planMark) {
			return llmtest.Text("1. Check how the errors are returned.")
		}
		first := r.FirstUser()
		var paths []string
		for i := range stubbornFiles {
			if p := fmt.Sprintf("svc/f%02d.go", i); strings.Contains(first, `<file path="`+p+`">`) {
				paths = append(paths, p)
			}
		}
		if len(paths) == 0 {
			return llmtest.Text("NONE")
		}
		var last *openai.ChatCompletionMessage
		for i := range r.Body.Messages {
			if m := &r.Body.Messages[i]; m.Role == openai.ChatMessageRoleAssistant {
				last = m
			}
		}
		switch {
		case last == nil:
			return llmtest.Calls(llmtest.Tool("file_read", map[string]any{"file_path": paths[0], "start_line": 1, "end_line": 40}))
		case last.ToolCalls[0].Function.Name == "file_read":
			var items []map[string]string
			for _, p := range paths {
				items = append(items, map[string]string{"path": p, "content": "Returns a bare sentinel.", "existing_code": "return errBad", "category": "bug", "severity": "medium"},
					map[string]string{"path": p, "content": "Logs without context.", "existing_code": "log.Print", "category": "maintainability", "severity": "low"})
			}
			return llmtest.Calls(llmtest.Tool("code_comment", map[string]any{"comments": items}))
		}
		res := toolResults(r)
		again := ambiguousItems(last.ToolCalls[0].Function.Arguments, res[len(res)-1])
		switch {
		case len(again) == 0 || mode == modelIgnores:
			return llmtest.Calls(llmtest.Done())
		case mode == modelWithDone:
			return llmtest.Calls(llmtest.Tool("code_comment", map[string]any{"comments": again}), llmtest.Done())
		}
		return llmtest.Calls(llmtest.Tool("code_comment", map[string]any{"comments": again}))
	}
}

// ambiguousItems are the items of a code_comment call (its JSON
// arguments) that its result reports ambiguous, unchanged.
func ambiguousItems(args, result string) []map[string]string {
	var call struct {
		Comments []map[string]string `json:"comments"`
	}
	if err := json.Unmarshal([]byte(args), &call); err != nil {
		return nil
	}
	var out []map[string]string
	for _, g := range ambiguousItem.FindAllStringSubmatch(result, -1) {
		if j, err := strconv.Atoi(g[1]); err == nil && j >= 1 && j <= len(call.Comments) {
			out = append(out, call.Comments[j-1])
		}
	}
	if len(out) == 0 && len(call.Comments) == 1 && strings.Contains(result, "ambiguous:") {
		out = call.Comments // a one-item result has no numbers
	}
	return out
}

// stubbornRun reviews the eleven files with the model answering as mode
// says, and returns the output and the requests sent.
func stubbornRun(t *testing.T, mode int) (Output, int) {
	base, head := stubbornChange()
	f := newFixture(t, base, head)
	srv := llmtest.New(t)
	srv.Handle(stubbornModel(mode))
	out := New(Config{}, client(t, srv, nil), tools.Default()).Review(context.Background(), f.input)
	return out, srv.Count()
}

// A model that sends the same quote again is asked once: the re-send is
// its final answer, kept at the held place and marked ambiguous (the other
// places as Candidates); the feedback costs one request per group, where
// it cost every request up to the cap.
func TestStubbornResendAskedOnce(t *testing.T) {
	ignored, n0 := stubbornRun(t, modelIgnores)
	stubborn, n1 := stubbornRun(t, modelResends)
	batched, n2 := stubbornRun(t, modelWithDone)
	pct := func(o Output) float64 {
		return 100 * float64(o.Usage.PromptTokens-ignored.Usage.PromptTokens) / float64(ignored.Usage.PromptTokens)
	}
	t.Logf("%d files, %d groups, every quote ambiguous: ignoring the feedback %d requests, %d prompt tokens; "+
		"re-sending the same quote alone %d requests, %d prompt tokens (%+.1f%%); with task_done %d requests, %d prompt tokens (%+.1f%%)",
		stubbornFiles, len(stubborn.Groups), n0, ignored.Usage.PromptTokens, n1, stubborn.Usage.PromptTokens, pct(stubborn),
		n2, batched.Usage.PromptTokens, pct(batched))
	if n1 > n0+len(stubborn.Groups) {
		t.Errorf("re-sending the same quote: %d requests, want at most %d (one more per group)", n1, n0+len(stubborn.Groups))
	}
	if pct(batched) > 25 {
		t.Errorf("re-sending with task_done costs %+.1f%% prompt tokens, want at most +25%%", pct(batched))
	}
	for _, o := range []Output{ignored, stubborn, batched} {
		if len(o.Comments) != 2*stubbornFiles {
			t.Errorf("%d comments, want %d (none lost, none twice)", len(o.Comments), 2*stubbornFiles)
		}
		for _, c := range o.Comments {
			if len(c.Candidates) == 0 || c.StartLine != 5 && c.StartLine != 7 {
				t.Errorf("%s:%d %q candidates %v: want it held at the first place, marked ambiguous", c.Path, c.StartLine, c.ExistingCode, c.Candidates)
			}
		}
	}
}
