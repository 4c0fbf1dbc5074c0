package agent

import (
	"slices"
	"strings"
	"testing"

	openai "github.com/sashabaranov/go-openai"

	"github.com/ocr-ci/ocr/internal/testkit/llmtest"
	"github.com/ocr-ci/ocr/review"
	"github.com/ocr-ci/ocr/tools"
)

func divComment(code string) llmtest.Call {
	return llmtest.Tool("code_comment", map[string]any{"comments": []map[string]string{{
		"content": "Division by zero panics when b is 0.", "existing_code": code,
		"category": "BUG", "severity": "high"}}})
}

func mainScript(answers ...llmtest.Answer) llmtest.Script {
	return llmtest.Script{Match: []string{mainMark, `<file path="svc/calc.go">`}, Answers: answers}
}

func toolResults(r llmtest.Request) []string {
	var out []string
	for _, m := range r.Body.Messages {
		if m.Role == openai.ChatMessageRoleTool {
			out = append(out, m.Content)
		}
	}
	return out
}

func lastMessage(r llmtest.Request) openai.ChatCompletionMessage {
	return r.Body.Messages[len(r.Body.Messages)-1]
}

func wantReviewed(t *testing.T, out Output) {
	t.Helper()
	if out.Status != review.StatusComplete || len(out.Files) != 1 || !out.Files[0].Reviewed {
		t.Fatalf("status %s, files %+v, errors %v; want the file reviewed", out.Status, out.Files, out.Errors)
	}
}

func wantNotReviewed(t *testing.T, out Output, reason review.Reason) {
	t.Helper()
	if out.Status != review.StatusFailed || len(out.Files) != 1 || out.Files[0].Reviewed || out.Files[0].Reason != reason {
		t.Fatalf("status %s, files %+v; want not reviewed for %s", out.Status, out.Files, reason)
	}
	if len(out.Errors) != 1 || !strings.Contains(out.Errors[0], string(reason)) {
		t.Errorf("errors = %q, want one naming %s", out.Errors, reason)
	}
}

func TestToolCallsInOrder(t *testing.T) {
	f := calcFixture(t)
	f.input.Rules = func(string) (string, string) { return "ocr/go", "Check nil and zero values." }
	f.input.Background = "Adds real division."
	f.input.Language = "German"
	out, srv := reviewWith(t, f, Config{},
		mainScript(
			llmtest.Calls(llmtest.Tool("code_search", map[string]any{"search_text": "Div("}),
				llmtest.Tool("file_read", map[string]any{"file_path": "svc/calc.go", "start_line": 4, "end_line": 5})),
			llmtest.Calls(divComment("return a / b"), llmtest.Done())))
	wantReviewed(t, out)
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("requests = %d, want 2", len(reqs))
	}
	first := reqs[0]
	for _, want := range []string{"return a / b", "Check nil and zero values.", "Adds real division.", "<review_files>"} {
		if !strings.Contains(first.FirstUser(), want) {
			t.Errorf("main prompt lacks %q", want)
		}
	}
	if !strings.Contains(first.Body.Messages[0].Content, "German") {
		t.Error("system prompt does not name the language")
	}
	if got := first.ToolNames(); len(got) != 6 {
		t.Errorf("main tools = %v, want all six", got)
	}
	res := toolResults(reqs[1])
	if len(res) != 2 || !strings.HasPrefix(res[0], "File: svc/calc.go") || !strings.Contains(res[1], "LINE_RANGE: 4-5") {
		t.Errorf("tool results out of order or wrong: %q", res)
	}
	if len(out.Comments) != 1 {
		t.Fatalf("comments = %+v", out.Comments)
	}
	c := out.Comments[0]
	if c.Path != "svc/calc.go" || c.StartLine != 5 || c.Side != review.SideNew || !c.InHunk ||
		c.Category != review.CategoryBug || c.Severity != review.SeverityHigh || c.RuleID != "ocr/go" ||
		c.Fingerprint != review.Fingerprint("svc/calc.go", review.CategoryBug, "return a / b") {
		t.Errorf("comment = %+v", c)
	}
	if out.Usage.Requests != 2 || out.Usage.PromptTokens == 0 {
		t.Errorf("usage = %+v", out.Usage)
	}
}

func TestMalformedArgumentsAndUnknownTool(t *testing.T) {
	out, srv := reviewWith(t, nil, Config{},
		mainScript(
			llmtest.Calls(llmtest.Call{Name: "file_read", Args: `{"file_path": `}, llmtest.Tool("run_shell", map[string]string{"cmd": "ls"})),
			llmtest.Calls(llmtest.Done())))
	wantReviewed(t, out)
	res := toolResults(srv.Requests()[1])
	if len(res) != 2 || !strings.HasPrefix(res[0], "Error") || res[1] != tools.NotFoundText {
		t.Errorf("results = %q, want an argument error then %q", res, tools.NotFoundText)
	}
}

func TestEmptyAnswerGetsANudge(t *testing.T) {
	out, srv := reviewWith(t, nil, Config{}, mainScript(llmtest.Text(""), llmtest.Calls(llmtest.Done())))
	wantReviewed(t, out)
	last := lastMessage(srv.Requests()[1])
	if last.Role != openai.ChatMessageRoleUser || !strings.Contains(last.Content, "You did not call a tool") {
		t.Errorf("second request ends with %+v, want the nudge", last)
	}
}

func TestMalformedAnswersEndTheGroupQuickly(t *testing.T) {
	for name, a := range map[string]llmtest.Answer{
		"unknown tools": llmtest.Calls(llmtest.Tool("nope", map[string]string{})),
		"bad arguments": llmtest.Calls(llmtest.Call{Name: "code_comment", Args: "{{"}),
		"text only":     llmtest.Text("Looks good to me."),
		// JSON naming an offered tool is a call written into the content
		// (TestProviders); one naming no offered tool is text.
		"tool-less JSON": llmtest.Text(`{"name": "run_shell", "arguments": {"cmd": "ls"}}`),
	} {
		t.Run(name, func(t *testing.T) {
			out, srv := reviewWith(t, nil, Config{}, llmtest.Script{Match: []string{mainMark}, Answers: []llmtest.Answer{a}, Repeat: true})
			wantNotReviewed(t, out, review.ReasonMalformed)
			if n := srv.Count(); n != maxBadAnswers {
				t.Errorf("requests = %d, want %d", n, maxBadAnswers)
			}
		})
	}
}

func TestRoundCapAndFinalRound(t *testing.T) {
	find := llmtest.Calls(llmtest.Tool("file_find", map[string]any{"query_name": "calc"}))
	t.Run("final round finishes", func(t *testing.T) {
		out, srv := reviewWith(t, nil, Config{MaxRounds: 2},
			mainScript(find, find, llmtest.Calls(divComment("return a / b"), llmtest.Done())))
		wantReviewed(t, out)
		final := srv.Requests()[2]
		if got := final.ToolNames(); !slices.Equal(got, []string{"task_done", "code_comment"}) {
			t.Errorf("final round tools = %v", got)
		}
		if !strings.Contains(lastMessage(final).Content, "final round") {
			t.Errorf("final round message = %q", lastMessage(final).Content)
		}
		if len(out.Comments) != 1 {
			t.Errorf("comments = %d, want the final round's comment", len(out.Comments))
		}
	})
	t.Run("no task_done", func(t *testing.T) {
		out, srv := reviewWith(t, nil, Config{MaxRounds: 2},
			mainScript(find, find, llmtest.Calls(llmtest.Tool("file_find", map[string]any{"query_name": "x"}))))
		wantNotReviewed(t, out, review.ReasonRoundCap)
		if srv.Count() != 3 {
			t.Errorf("requests = %d, want 3", srv.Count())
		}
		if len(out.Comments) != 0 {
			t.Errorf("comments = %+v", out.Comments)
		}
	})
}

func TestSkippedToolAfterThreeFailures(t *testing.T) {
	bad := llmtest.Calls(llmtest.Tool("file_read", map[string]any{"file_path": "missing.go"}))
	out, srv := reviewWith(t, nil, Config{}, mainScript(bad, bad, bad, bad, llmtest.Calls(llmtest.Done())))
	// The fourth call of a disabled tool is unusable, but the streak of bad
	// answers starts there: the model still gets to finish.
	wantReviewed(t, out)
	res := toolResults(srv.Requests()[4])
	if !strings.Contains(res[len(res)-1], "disabled") {
		t.Errorf("last file_read result = %q, want it disabled", res[len(res)-1])
	}
}

func TestReasoningIsKeptAsThinking(t *testing.T) {
	a := llmtest.Calls(divComment("return a / b"))
	a.Reasoning = "b may be zero"
	out, srv := reviewWith(t, nil, Config{}, mainScript(a, llmtest.Calls(llmtest.Done())))
	if len(out.Comments) != 1 || out.Comments[0].Thinking != "b may be zero" {
		t.Fatalf("comments = %+v, want the reasoning kept as Thinking", out.Comments)
	}
	msgs := srv.Requests()[1].Body.Messages
	if got := msgs[2].ReasoningContent; got != "b may be zero" {
		t.Errorf("reasoning sent back = %q", got)
	}
}

func TestToolCallsWithoutIDs(t *testing.T) {
	a := llmtest.Calls(llmtest.Tool("file_find", map[string]any{"query_name": "calc"}), llmtest.Tool("file_find", map[string]any{"query_name": "x"}))
	a.OmitIDs = true
	out, srv := reviewWith(t, nil, Config{}, mainScript(a, llmtest.Calls(llmtest.Done())))
	wantReviewed(t, out)
	// llmtest rejects tool results that answer no call: ids were filled in.
	if res := toolResults(srv.Requests()[1]); len(res) != 2 {
		t.Errorf("results = %q", res)
	}
}
