package llm_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/internal/infra/llm"
	"github.com/ocr-ci/ocr/internal/testkit/llmtest"
	openai "github.com/sashabaranov/go-openai"
)

var offered = []openai.Tool{{Type: openai.ToolTypeFunction, Function: &openai.FunctionDefinition{
	Name: "file_read", Description: "Read a file", Parameters: map[string]any{"type": "object",
		"properties": map[string]any{"file_path": map[string]string{"type": "string"}}}}},
	{Type: openai.ToolTypeFunction, Function: &openai.FunctionDefinition{Name: "task_done", Description: "Finish"}}}

func withTools(marker string) openai.ChatCompletionRequest {
	r := ask(marker)
	r.Tools = offered
	r.MaxCompletionTokens = 512
	return r
}

// TestToolsRefusedSwitchesToText: Ollama and vLLM refuse tools with a 400;
// the client switches to the text protocol once, logs why, and the model's
// fenced action comes back as a tool call.
func TestToolsRefusedSwitchesToText(t *testing.T) {
	for _, server := range []string{"ollama", "vllm"} {
		t.Run(server, func(t *testing.T) {
			srv := llmtest.New(t, llmtest.Script{Match: []string{"m1"}, Answers: []llmtest.Answer{
				llmtest.Calls(llmtest.Tool("file_read", map[string]string{"file_path": "a.go"}))}},
				llmtest.Script{Match: []string{"m2"}, Answers: []llmtest.Answer{llmtest.Calls(llmtest.Done())}})
			srv.SetQuirks(llmtest.Quirks{NoTools: server})
			r := &recorder{}
			c := newClient(t, srv.Config(), r)
			resp, err := c.Chat(context.Background(), withTools("m1"))
			if err != nil {
				t.Fatal(err)
			}
			got := resp.Choices[0].Message
			if len(got.ToolCalls) != 1 || got.ToolCalls[0].Function.Name != "file_read" || got.ToolCalls[0].Function.Arguments != `{"file_path":"a.go"}` {
				t.Fatalf("calls = %+v", got.ToolCalls)
			}
			if _, err := c.Chat(context.Background(), withTools("m2")); err != nil {
				t.Fatal(err)
			}
			reqs := srv.Requests()
			if len(reqs) != 3 || len(reqs[0].Body.Tools) == 0 || len(reqs[1].Body.Tools) != 0 || len(reqs[2].Body.Tools) != 0 {
				t.Fatalf("want one refused request with tools, then two without; got %d", len(reqs))
			}
			if !strings.Contains(reqs[2].Body.Messages[0].Content, "## How to call tools") {
				t.Errorf("system prompt lacks the tools: %q", reqs[2].Body.Messages[0].Content)
			}
			if p, why := c.Protocol(); p != llm.ToolsText || !strings.Contains(why, "refused tools") {
				t.Errorf("protocol %s (%s)", p, why)
			}
			if len(r.logs) != 1 || !strings.Contains(r.logs[0], "text protocol") {
				t.Errorf("logs = %q", r.logs)
			}
		})
	}
}

// TestTextProtocolConversation: an earlier call and its result go back as
// the action and a user message naming the tool, roles alternating.
func TestTextProtocolConversation(t *testing.T) {
	srv := llmtest.New(t, llmtest.Script{Match: []string{"m"}, Answers: []llmtest.Answer{llmtest.Text("ok")}})
	cfg := srv.Config()
	cfg.Tools = llm.ToolsText
	c := newClient(t, cfg, &recorder{})
	req := withTools("m")
	req.Messages = append(req.Messages,
		openai.ChatCompletionMessage{Role: "assistant", ToolCalls: []openai.ToolCall{{ID: "c1", Type: "function",
			Function: openai.FunctionCall{Name: "file_read", Arguments: `{"file_path":"a.go"}`}}}},
		openai.ChatCompletionMessage{Role: "tool", ToolCallID: "c1", Content: "package a"},
		openai.ChatCompletionMessage{Role: "user", Content: "go on"})
	if _, err := c.Chat(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	ms := srv.Requests()[0].Body.Messages
	var roles []string
	for _, m := range ms {
		roles = append(roles, m.Role)
	}
	if strings.Join(roles, ",") != "system,user,assistant,user" {
		t.Fatalf("roles %v", roles)
	}
	if ms[2].Content != "```json\n{\"tool\": \"file_read\", \"arguments\": {\"file_path\":\"a.go\"}}\n```" {
		t.Errorf("action = %q", ms[2].Content)
	}
	if ms[3].Content != "Result of file_read:\npackage a\n\ngo on" {
		t.Errorf("result = %q", ms[3].Content)
	}
}

// TestContentCalls reads calls written into the content by servers
// without a tool parser, and the text protocol's lenient actions.
func TestContentCalls(t *testing.T) {
	tests := []struct {
		name, content, tools string
		want                 string // name + arguments of the calls, "" none
	}{
		{"hermes", "<tool_call>\n{\"name\": \"file_read\", \"arguments\": {\"file_path\": \"a.go\"}}\n</tool_call>", "", `file_read{"file_path":"a.go"}`},
		{"hermes two", "<tool_call>{\"name\": \"file_read\", \"arguments\": {}}</tool_call><tool_call>{\"name\": \"task_done\", \"arguments\": {}}</tool_call>", "", `file_read{} task_done{}`},
		{"mistral", `[TOOL_CALLS] [{"name": "file_read", "arguments": {"file_path": "a.go"}}]`, "", `file_read{"file_path":"a.go"}`},
		{"mistral v11", `[TOOL_CALLS]file_read[ARGS]{"file_path": "a.go"}`, "", `file_read{"file_path":"a.go"}`},
		{"bare json", `{"name": "task_done", "arguments": "{\"state\": \"DONE\"}"}`, "", `task_done{"state":"DONE"}`},
		{"unknown tool", `{"name": "shell", "arguments": {}}`, "", ""},
		{"prose", "No calls here {not json}.", "", ""},
		{"text: prose, no fence, trailing comma", `I'll read it: {"tool": "file_read", "arguments": {"file_path": "a.go",},}`, "text", `file_read{"file_path":"a.go"}`},
		{"text: fenced, first only", "```json\n{\"tool\": \"file_read\", \"arguments\": {}}\n```\n```json\n{\"tool\": \"task_done\", \"arguments\": {}}\n```", "text", `file_read{}`},
		{"text: malformed", "```json\n{\"tool\": \"file_read\", \"arguments\": {\"file_path\": a.go}}\n```", "text", `file_read{"file_path": a.go}`},
		{"think stripped", "<think>maybe {\"name\": \"task_done\"}</think>\nDone.", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.New(t, llmtest.Script{Match: []string{"m"}, Answers: []llmtest.Answer{llmtest.Text(tt.content)}})
			cfg := srv.Config()
			cfg.Tools = tt.tools
			resp, err := newClient(t, cfg, &recorder{}).Chat(context.Background(), withTools("m"))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range resp.Choices[0].Message.ToolCalls {
				got = append(got, c.Function.Name+c.Function.Arguments)
			}
			if strings.Join(got, " ") != tt.want {
				t.Errorf("calls = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestThinkMovesToReasoning: <think> leaves the content; reasoning tokens
// are in the usage.
func TestThinkMovesToReasoning(t *testing.T) {
	srv := llmtest.New(t, llmtest.Script{Match: []string{"m"}, Answers: []llmtest.Answer{{Text: "The plan.", Reasoning: "Let me think about a.go."}}})
	srv.SetQuirks(llmtest.Quirks{Think: true})
	resp, err := newClient(t, srv.Config(), &recorder{}).Chat(context.Background(), ask("m"))
	if err != nil {
		t.Fatal(err)
	}
	m := resp.Choices[0].Message
	if m.Content != "The plan." || m.ReasoningContent != "Let me think about a.go." {
		t.Errorf("content %q, reasoning %q", m.Content, m.ReasoningContent)
	}
	if d := resp.Usage.CompletionTokensDetails; d == nil || d.ReasoningTokens == 0 {
		t.Errorf("usage %+v has no reasoning tokens", resp.Usage)
	}
}

// TestRefusedParameters: a 400 refusing a parameter costs one retry, once
// per run; max_completion_tokens becomes max_tokens.
func TestRefusedParameters(t *testing.T) {
	srv := llmtest.New(t, llmtest.Script{Match: []string{"m"}, Repeat: true, Answers: []llmtest.Answer{llmtest.Text("ok")}})
	srv.SetQuirks(llmtest.Quirks{Refuse: []string{"temperature", "seed", "max_completion_tokens"}})
	r := &recorder{}
	cfg := srv.Config()
	cfg.ExtraBody = llm.Body{"temperature": []byte("0"), "seed": []byte("7")}
	c := newClient(t, cfg, r)
	for range 2 {
		if _, err := c.Chat(context.Background(), withTools("m")); err != nil {
			t.Fatal(err)
		}
	}
	reqs := srv.Requests()
	if len(reqs) != 5 {
		t.Fatalf("%d requests, want 3 refused + 2 answered", len(reqs))
	}
	last := reqs[4].Raw
	if _, ok := last["temperature"]; ok {
		t.Errorf("temperature still sent")
	}
	if _, ok := last["seed"]; ok {
		t.Errorf("seed still sent")
	}
	if last["max_tokens"] != float64(512) || last["max_completion_tokens"] != nil {
		t.Errorf("max tokens: %v / %v", last["max_tokens"], last["max_completion_tokens"])
	}
	if n := len(c.Adaptations()); n != 3 || len(r.logs) != 3 {
		t.Errorf("adaptations %q, logs %q", c.Adaptations(), r.logs)
	}
}

// TestContextWindowLearned reads the window from each server's wording and
// does not retry the request whole.
func TestContextWindowLearned(t *testing.T) {
	for _, style := range []string{"openai", "vllm", "llamacpp", "anthropic", "lmstudio"} {
		t.Run(style, func(t *testing.T) {
			srv := llmtest.New(t)
			srv.SetQuirks(llmtest.Quirks{Window: 100, WindowStyle: style})
			c := newClient(t, srv.Config(), &recorder{})
			req := withTools("m")
			req.Messages[1].Content = strings.Repeat("x", 2000)
			_, err := c.Chat(context.Background(), req)
			var e *llm.Error
			if !errors.As(err, &e) || !e.OverContext() || e.Window != 100 || c.Window() != 100 {
				t.Fatalf("err %v, window %d", err, c.Window())
			}
			if srv.Count() != 1 {
				t.Errorf("%d requests, want 1", srv.Count())
			}
		})
	}
}

// TestAzurePortalURL: the URL the Azure portal shows is split into the
// resource endpoint, deployment and api-version; the key goes as api-key.
func TestAzurePortalURL(t *testing.T) {
	srv := llmtest.New(t, llmtest.Script{Match: []string{"m"}, Answers: []llmtest.Answer{llmtest.Text("ok")}})
	srv.Expect("/openai/deployments/gpt4o-prod/chat/completions", "api-key", llmtest.Token)
	cfg := llm.Config{URL: strings.TrimSuffix(srv.URL, "/v1") + "/openai/deployments/gpt4o-prod/chat/completions?api-version=2024-06-01", Token: llmtest.Token}
	if got := cfg.AzureRecognised(); got != "Azure portal URL: deployment gpt4o-prod, api-version 2024-06-01, key sent as api-key" {
		t.Errorf("recognised %q", got)
	}
	if _, err := newClient(t, cfg, &recorder{}).Chat(context.Background(), ask("m")); err != nil {
		t.Fatal(err)
	}
	if q := srv.Requests()[0].Query; q != "api-version=2024-06-01" {
		t.Errorf("query %q", q)
	}
}

// TestTextProtocolFinalRequestWithoutTools: a last request that offers no
// tools still sends the earlier calls and results as text, and the system
// prompt describes no tools.
func TestTextProtocolFinalRequestWithoutTools(t *testing.T) {
	srv := llmtest.New(t, llmtest.Script{Match: []string{"m"}, Answers: []llmtest.Answer{llmtest.Text("The answer.")}})
	cfg := srv.Config()
	cfg.Tools = llm.ToolsText
	req := ask("m")
	req.Messages = append(req.Messages,
		openai.ChatCompletionMessage{Role: "assistant", ToolCalls: []openai.ToolCall{{ID: "c1", Type: "function",
			Function: openai.FunctionCall{Name: "file_read", Arguments: `{}`}}}},
		openai.ChatCompletionMessage{Role: "tool", ToolCallID: "c1", Content: "package a"},
		openai.ChatCompletionMessage{Role: "user", Content: "Answer now."})
	resp, err := newClient(t, cfg, &recorder{}).Chat(context.Background(), req)
	if err != nil || resp.Choices[0].Message.Content != "The answer." {
		t.Fatalf("%v %+v", err, resp)
	}
	ms := srv.Requests()[0].Body.Messages
	if ms[0].Content != "sys" || len(ms) != 4 || ms[2].ToolCalls != nil || ms[3].Role != "user" {
		t.Errorf("messages %+v", ms)
	}
}

// TestMaxOutputLearned: a model that allows fewer completion tokens than
// ocr asks for refuses the request with a 400 naming its limit (OpenAI's
// and Anthropic's wordings); the client asks for at most that from then
// on, for one retry, and says so once.
func TestMaxOutputLearned(t *testing.T) {
	for _, style := range []string{"openai", "anthropic"} {
		t.Run(style, func(t *testing.T) {
			srv := llmtest.New(t, llmtest.Script{Match: []string{"m"}, Repeat: true, Answers: []llmtest.Answer{llmtest.Text("ok")}})
			srv.SetQuirks(llmtest.Quirks{MaxOutput: 300, MaxOutputStyle: style})
			r := &recorder{}
			c := newClient(t, srv.Config(), r)
			for range 2 {
				if _, err := c.Chat(context.Background(), withTools("m")); err != nil {
					t.Fatal(err)
				}
			}
			reqs := srv.Requests()
			if len(reqs) != 3 {
				t.Fatalf("%d requests, want 1 refused + 2 answered", len(reqs))
			}
			for _, req := range reqs[1:] {
				if req.Body.MaxCompletionTokens != 300 {
					t.Errorf("request %d asked for %d completion tokens, want the model's 300", req.Seq, req.Body.MaxCompletionTokens)
				}
			}
			if len(c.Adaptations()) != 1 || len(r.logs) != 1 || !strings.Contains(r.logs[0], "at most 300 completion tokens") {
				t.Errorf("adaptations %q, logs %q; want one saying the limit", c.Adaptations(), r.logs)
			}
		})
	}
}

// TestMaxOutputNeverRaised: a request asking for fewer tokens than the
// learned limit keeps its own number.
func TestMaxOutputNeverRaised(t *testing.T) {
	srv := llmtest.New(t, llmtest.Script{Match: []string{"m"}, Repeat: true, Answers: []llmtest.Answer{llmtest.Text("ok")}})
	srv.SetQuirks(llmtest.Quirks{MaxOutput: 300})
	c := newClient(t, srv.Config(), &recorder{})
	if _, err := c.Chat(context.Background(), withTools("m")); err != nil {
		t.Fatal(err)
	}
	small := withTools("m")
	small.MaxCompletionTokens = 100
	if _, err := c.Chat(context.Background(), small); err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	if got := reqs[len(reqs)-1].Body.MaxCompletionTokens; got != 100 {
		t.Errorf("the small request asked for %d completion tokens, want its own 100", got)
	}
}
