package agent

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/internal/testkit/llmtest"
	"github.com/ocr-ci/ocr/review"
	"github.com/ocr-ci/ocr/tools"
)

const askMark = "You answer questions about a pull request"

func askWith(t *testing.T, in AskInput, answers ...llmtest.Answer) (AskOutput, *llmtest.Server) {
	t.Helper()
	f := calcFixture(t)
	srv := llmtest.New(t, llmtest.Script{Match: []string{askMark}, Answers: answers})
	in.System, in.Source, in.Diffs = askMark+".", f.input.Source, f.input.Diffs
	if in.Prompt == "" {
		in.Prompt = "<question>Why is b not checked?</question>"
	}
	return New(Config{}, client(t, srv, nil), tools.Default()).Ask(context.Background(), in), srv
}

// The model reads a file with a read-only tool, then answers in text: two
// requests, the four read tools offered, the file's content in the second.
func TestAskReadsThenAnswers(t *testing.T) {
	out, srv := askWith(t, AskInput{},
		llmtest.Calls(llmtest.Tool("file_read", map[string]any{"file_path": "svc/calc.go"})),
		llmtest.Text("Div divides by b without a check: a zero b panics."))
	if out.Reason != "" || !strings.Contains(out.Text, "zero b panics") {
		t.Fatalf("out = %+v", out)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || out.Usage.Requests != 2 {
		t.Fatalf("%d requests (usage %d), want 2", len(reqs), out.Usage.Requests)
	}
	got := reqs[0].ToolNames()
	slices.Sort(got)
	want := slices.Clone(AskTools)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("tools offered %v, want %v", got, want)
	}
	last := reqs[1].Body.Messages
	if !strings.Contains(last[len(last)-1].Content, "return a / b") {
		t.Errorf("the tool result did not reach the model: %q", last[len(last)-1].Content)
	}
}

// A model that keeps calling tools is asked for its answer, without tools,
// at the MaxRequests-th request; code_comment is not a tool of an answer.
func TestAskCapsRequests(t *testing.T) {
	read := llmtest.Calls(llmtest.Tool("code_comment", map[string]any{"path": "svc/calc.go", "comments": []any{}}),
		llmtest.Tool("file_find", map[string]any{"query_name": "calc"}))
	out, srv := askWith(t, AskInput{MaxRequests: 3}, read, read, llmtest.Text("Answer after the cap."))
	if out.Text != "Answer after the cap." {
		t.Fatalf("out = %+v", out)
	}
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	if n := reqs[2].ToolNames(); len(n) != 0 {
		t.Errorf("the last request offered %v, want no tool", n)
	}
	if !strings.Contains(reqs[1].Body.Messages[3].Content, tools.NotFoundText) {
		t.Errorf("code_comment was not refused: %q", reqs[1].Body.Messages[3].Content)
	}
}

// A token cap below the first prompt sends nothing and says budget.
func TestAskTokenCap(t *testing.T) {
	out, srv := askWith(t, AskInput{MaxTokens: 10})
	if out.Reason != review.ReasonBudget || len(srv.Requests()) != 0 {
		t.Fatalf("out = %+v, %d requests", out, len(srv.Requests()))
	}
}

// A provider failure is a reason, never an empty answer.
func TestAskProviderFailure(t *testing.T) {
	out, _ := askWith(t, AskInput{}, llmtest.Answer{Status: 400, Message: "model not found"})
	if out.Reason != review.ReasonProvider || out.Text != "" {
		t.Fatalf("out = %+v", out)
	}
}
