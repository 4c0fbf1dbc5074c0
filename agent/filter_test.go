package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	openai "github.com/sashabaranov/go-openai"

	"github.com/ocr-ci/ocr/review"
)

// fakeAnswer is one scripted response of the fake provider.
type fakeAnswer struct {
	status int
	resp   openai.ChatCompletionResponse
}

// fakeProvider is a strict OpenAI-compatible endpoint: it checks method,
// path, auth and body, answers from its script and fails the test on
// unexpected or unused answers.
type fakeProvider struct {
	t       *testing.T
	mu      sync.Mutex
	answers []fakeAnswer
	reqs    []openai.ChatCompletionRequest
}

// sdkChatter adapts the real go-openai client to Chatter.
type sdkChatter struct{ c *openai.Client }

func (s sdkChatter) Chat(ctx context.Context, req openai.ChatCompletionRequest) (openai.ChatCompletionResponse, error) {
	return s.c.CreateChatCompletion(ctx, req)
}

func newFakeProvider(t *testing.T, answers ...fakeAnswer) (*fakeProvider, Chatter) {
	f := &fakeProvider{t: t, answers: answers}
	srv := httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(func() {
		srv.Close()
		if len(f.answers) > 0 {
			t.Errorf("fake provider: %d answers unused", len(f.answers))
		}
	})
	cfg := openai.DefaultConfig("test-key")
	cfg.BaseURL = srv.URL + "/v1"
	return f, sdkChatter{openai.NewClientWithConfig(cfg)}
}

func (f *fakeProvider) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" || r.Header.Get("Authorization") != "Bearer test-key" {
		f.t.Errorf("fake provider: unexpected %s %s (auth %q)", r.Method, r.URL.Path, r.Header.Get("Authorization"))
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	var req openai.ChatCompletionRequest
	if err := dec.Decode(&req); err != nil {
		f.t.Errorf("fake provider: bad body: %v", err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reqs = append(f.reqs, req)
	if len(f.answers) == 0 {
		f.t.Errorf("fake provider: unexpected request %d", len(f.reqs))
		http.Error(w, `{"error": {"message": "unexpected", "type": "server_error"}}`, http.StatusInternalServerError)
		return
	}
	a := f.answers[0]
	f.answers = f.answers[1:]
	w.Header().Set("Content-Type", "application/json")
	if a.status != 0 {
		w.WriteHeader(a.status)
		// The fake's writes fail only when the client has gone.
		_, _ = fmt.Fprintf(w, `{"error": {"message": "%s", "type": "server_error"}}`, http.StatusText(a.status))
		return
	}
	_ = json.NewEncoder(w).Encode(a.resp)
}

// callAnswer answers with tool calls (name, raw JSON arguments) pairs.
func callAnswer(nameArgs ...string) fakeAnswer {
	msg := openai.ChatCompletionMessage{Role: openai.ChatMessageRoleAssistant}
	for i := 0; i+1 < len(nameArgs); i += 2 {
		msg.ToolCalls = append(msg.ToolCalls, openai.ToolCall{ID: fmt.Sprintf("call_%d", i), Type: openai.ToolTypeFunction,
			Function: openai.FunctionCall{Name: nameArgs[i], Arguments: nameArgs[i+1]}})
	}
	return fakeAnswer{resp: openai.ChatCompletionResponse{ID: "chatcmpl-1", Object: "chat.completion", Model: "m",
		Usage:   openai.Usage{PromptTokens: 900, CompletionTokens: 40, TotalTokens: 940},
		Choices: []openai.ChatCompletionChoice{{Message: msg, FinishReason: openai.FinishReasonToolCalls}}}}
}

func textAnswer(s string) fakeAnswer {
	a := callAnswer()
	a.resp.Choices[0].Message.Content = s
	a.resp.Choices[0].FinishReason = openai.FinishReasonStop
	return a
}

func threeComments() []review.Comment {
	mk := func(line int, content, code string) review.Comment {
		return review.Comment{Location: review.Location{Path: "a.go", Side: review.SideNew, StartLine: line, EndLine: line},
			Category: review.CategoryBug, Severity: review.SeverityHigh, Content: content, ExistingCode: code}
	}
	return []review.Comment{mk(2, "x may be nil", "x.Y()"), mk(3, "quote not in diff", "z := w()"), mk(4, "err ignored", "f()")}
}

const tinyDiff = "--- a/a.go\n+++ b/a.go\n@@ -1,1 +1,4 @@\n package a\n+x.Y()\n+f()\n+g()\n"

func TestFilterDrops(t *testing.T) {
	f, chat := newFakeProvider(t, callAnswer(FilterTool, `{"drop": [{"id": 2, "reason": "z := w() is not in the diff"}]}`))
	in := threeComments()
	kept, drops, usage, err := FilterWithReasons(context.Background(), chat, "m", tinyDiff, in)
	if err != nil {
		t.Fatal(err)
	}
	if len(kept) != 2 || kept[0].Content != in[0].Content || kept[1].Content != in[2].Content {
		t.Errorf("kept = %+v, want comments 1 and 3", kept)
	}
	if len(drops) != 1 || drops[0].Comment.Content != in[1].Content || drops[0].Reason != "z := w() is not in the diff" {
		t.Errorf("drops = %+v", drops)
	}
	if usage != (review.Usage{Requests: 1, PromptTokens: 900, CompletionTokens: 40}) {
		t.Errorf("usage = %+v", usage)
	}
	req := f.reqs[0]
	if req.Model != "m" || len(req.Messages) != 2 || len(req.Tools) != 1 || req.Tools[0].Function.Name != FilterTool || !req.Tools[0].Function.Strict {
		t.Errorf("request = %+v", req)
	}
	raw, _ := json.Marshal(req.ToolChoice)
	var tc openai.ToolChoice
	if err := json.Unmarshal(raw, &tc); err != nil || tc.Type != openai.ToolTypeFunction || tc.Function.Name != FilterTool {
		t.Errorf("tool_choice = %s, want the forced drop_comments function", raw)
	}
	if u := req.Messages[1].Content; !strings.Contains(u, "+x.Y()") || !strings.Contains(u, "[2] a.go:3 (bug, high)\nQuoted code:\nz := w()") {
		t.Errorf("user message lacks the diff or the numbered comments:\n%s", u)
	}
}

func TestFilterFailsOpen(t *testing.T) {
	cases := []struct {
		name   string
		answer fakeAnswer
		want   string
	}{
		{"http error", fakeAnswer{status: http.StatusBadRequest}, "the model call failed"},
		{"text answer", textAnswer("Comment 2 should be dropped."), "no drop_comments call"},
		{"other tool", callAnswer("read_file", `{"path": "a.go"}`), `calls "read_file"`},
		{"malformed json", callAnswer(FilterTool, `{"drop": [{"id": 2,`), "malformed drop_comments arguments"},
		{"unknown id", callAnswer(FilterTool, `{"drop": [{"id": 4, "reason": "x"}]}`), "unknown comment id 4"},
		{"zero id", callAnswer(FilterTool, `{"drop": [{"id": 0, "reason": "x"}]}`), "unknown comment id 0"},
		{"extra field", callAnswer(FilterTool, `{"drop": [], "add": [{"content": "new"}]}`), `unknown field "add"`},
		{"missing reason", callAnswer(FilterTool, `{"drop": [{"id": 1}]}`), "id and reason are required"},
		{"missing drop", callAnswer(FilterTool, `{}`), `missing "drop"`},
		{"string id", callAnswer(FilterTool, `{"drop": [{"id": "2", "reason": "x"}]}`), "cannot unmarshal string"},
		{"one bad call of two", callAnswer(FilterTool, `{"drop": [{"id": 1, "reason": "x"}]}`, FilterTool, `{"drop": [{"id": 9, "reason": "x"}]}`), "unknown comment id 9"},
		{"no choices", func() fakeAnswer { a := callAnswer(); a.resp.Choices = nil; return a }(), "no choices"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, chat := newFakeProvider(t, c.answer)
			in := threeComments()
			kept, usage, err := Filter(context.Background(), chat, "m", tinyDiff, in)
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "kept all 3 comments") {
				t.Errorf("err = %v, want it to contain %q", err, c.want)
			}
			if len(kept) != len(in) || usage.Requests != 1 {
				t.Errorf("kept %d of %d comments (usage %+v); a failed filter must keep all", len(kept), len(in), usage)
			}
		})
	}
}

func TestFilterMergesCalls(t *testing.T) {
	_, chat := newFakeProvider(t, callAnswer(FilterTool, `{"drop": [{"id": 1, "reason": "a"}]}`, FilterTool, `{"drop": [{"id": 3, "reason": "b"}]}`))
	kept, _, err := Filter(context.Background(), chat, "m", tinyDiff, threeComments())
	if err != nil || len(kept) != 1 || kept[0].StartLine != 3 {
		t.Errorf("kept = %+v, err = %v; want only the comment on line 3", kept, err)
	}
}

func TestFilterKeepsAllOnEmptyDrop(t *testing.T) {
	_, chat := newFakeProvider(t, callAnswer(FilterTool, `{"drop": []}`))
	kept, _, err := Filter(context.Background(), chat, "m", tinyDiff, threeComments())
	if err != nil || len(kept) != 3 {
		t.Errorf("kept %d, err %v; want all 3 and no error", len(kept), err)
	}
}

func TestFilterNoCommentsNoCall(t *testing.T) {
	f, chat := newFakeProvider(t)
	kept, usage, err := Filter(context.Background(), chat, "m", tinyDiff, nil)
	if err != nil || len(kept) != 0 || usage.Requests != 0 || len(f.reqs) != 0 {
		t.Errorf("Filter(no comments) = %v, %+v, %v with %d requests; want no call", kept, usage, err, len(f.reqs))
	}
}
