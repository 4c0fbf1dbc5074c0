package llmtest

import (
	"context"
	"fmt"
	"strings"
	"testing"

	openai "github.com/sashabaranov/go-openai"
)

// fakeTB records Errorf and runs cleanups on demand.
type fakeTB struct {
	testing.TB
	errs     []string
	cleanups []func()
}

func (f *fakeTB) Errorf(format string, args ...any) {
	f.errs = append(f.errs, fmt.Sprintf(format, args...))
}
func (f *fakeTB) Cleanup(fn func()) { f.cleanups = append(f.cleanups, fn) }
func (f *fakeTB) finish() {
	for _, fn := range f.cleanups {
		fn()
	}
}

func client(s *Server) *openai.Client {
	c := openai.DefaultConfig(Token)
	c.BaseURL = s.URL
	return openai.NewClientWithConfig(c)
}

func user(text string) openai.ChatCompletionRequest {
	return openai.ChatCompletionRequest{Model: Model, Messages: []openai.ChatCompletionMessage{
		{Role: "system", Content: "s"}, {Role: "user", Content: text}}}
}

func TestScriptsAndToolCalls(t *testing.T) {
	s := New(t,
		Script{Match: []string{"a.go"}, Answers: []Answer{Calls(Tool("file_read", map[string]any{"file_path": "a.go"}), Call{Name: "nope", Args: "{bad"})}},
		Script{Match: []string{"b.go"}, Answers: []Answer{Text("hello")}})
	ctx := context.Background()
	r, err := client(s).CreateChatCompletion(ctx, user("review b.go"))
	if err != nil || r.Choices[0].Message.Content != "hello" {
		t.Fatalf("b.go: %v %v", r, err)
	}
	r, err = client(s).CreateChatCompletion(ctx, user("review a.go"))
	if err != nil {
		t.Fatal(err)
	}
	calls := r.Choices[0].Message.ToolCalls
	if len(calls) != 2 || calls[0].Function.Arguments != `{"file_path":"a.go"}` || calls[1].Function.Arguments != "{bad" || r.Choices[0].FinishReason != "tool_calls" {
		t.Errorf("tool calls = %+v", calls)
	}
	if got := s.Requests(); len(got) != 2 || got[0].Script != "b.go" || got[1].Script != "a.go" {
		t.Errorf("requests = %+v", got)
	}
}

func TestStrictness(t *testing.T) {
	tests := []struct {
		name string
		req  openai.ChatCompletionRequest
		want string
	}{
		{"no script", user("other"), "unexpected request"},
		{"dangling tool result", openai.ChatCompletionRequest{Model: Model, Messages: []openai.ChatCompletionMessage{
			{Role: "user", Content: "x.go"}, {Role: "tool", ToolCallID: "c1", Content: "r"}}}, "answers no pending tool call"},
		{"unanswered tool call", openai.ChatCompletionRequest{Model: Model, Messages: []openai.ChatCompletionMessage{
			{Role: "user", Content: "x.go"}, {Role: "assistant", ToolCalls: []openai.ToolCall{{ID: "c1", Type: "function", Function: openai.FunctionCall{Name: "f"}}}},
			{Role: "user", Content: "go on"}}}, "have no result"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &fakeTB{TB: t}
			s := New(f, Script{Match: []string{"x.go"}, Answers: []Answer{Text("unused")}})
			if _, err := client(s).CreateChatCompletion(context.Background(), tt.req); err == nil {
				t.Error("request succeeded")
			}
			f.finish()
			all := strings.Join(f.errs, "\n")
			if !strings.Contains(all, tt.want) || !strings.Contains(all, "never requested") {
				t.Errorf("errors = %q, want %q and the unused answer", all, tt.want)
			}
		})
	}
}

func TestRepeatAndHandler(t *testing.T) {
	s := New(t, Script{Match: []string{"r"}, Answers: []Answer{Text("1"), Text("2")}, Repeat: true})
	s.Handle(func(r Request) Answer { return Text("handled " + r.FirstUser()) })
	var got []string
	for _, m := range []string{"r", "r", "r", "q"} {
		r, err := client(s).CreateChatCompletion(context.Background(), user(m))
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, r.Choices[0].Message.Content)
	}
	if strings.Join(got, ",") != "1,2,2,handled q" {
		t.Errorf("answers = %v", got)
	}
}
