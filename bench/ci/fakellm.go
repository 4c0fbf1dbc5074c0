package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// fakeLLM is a minimal OpenAI-compatible chat-completions endpoint that
// ends every conversation at once: a request that offers task_done gets a
// task_done call, any other (the plan phase) a short plan text. It records
// when the first request arrived.
type fakeLLM struct {
	mu       sync.Mutex
	first    time.Time
	requests int
	bad      []string
}

// ServeHTTP answers one chat-completions request.
func (f *fakeLLM) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	now := time.Now()
	var req openai.ChatCompletionRequest
	err := json.NewDecoder(r.Body).Decode(&req)
	f.mu.Lock()
	if f.first.IsZero() {
		f.first = now
	}
	f.requests++
	seq := f.requests
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/chat/completions") || err != nil || req.Model == "" {
		f.bad = append(f.bad, fmt.Sprintf("%s %s (decode: %v, model %q)", r.Method, r.URL.Path, err, req.Model))
		f.mu.Unlock()
		http.Error(w, `{"error":{"message":"unexpected request","type":"invalid_request_error"}}`, http.StatusBadRequest)
		return
	}
	f.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(answer(req, seq)) // fails only when the client has gone
}

// answer is task_done when offered, else a plan text.
func answer(req openai.ChatCompletionRequest, seq int) openai.ChatCompletionResponse {
	msg := openai.ChatCompletionMessage{Role: openai.ChatMessageRoleAssistant, Content: "Plan: read the diff; nothing else is needed."}
	finish := openai.FinishReasonStop
	for _, t := range req.Tools {
		if t.Function != nil && t.Function.Name == "task_done" {
			msg.Content = ""
			msg.ToolCalls = []openai.ToolCall{{ID: fmt.Sprintf("call_%d", seq), Type: openai.ToolTypeFunction,
				Function: openai.FunctionCall{Name: "task_done", Arguments: `{"state":"DONE"}`}}}
			finish = openai.FinishReasonToolCalls
		}
	}
	return openai.ChatCompletionResponse{ID: fmt.Sprintf("chatcmpl-%d", seq), Object: "chat.completion",
		Created: time.Now().Unix(), Model: req.Model,
		Usage:   openai.Usage{PromptTokens: 1000, CompletionTokens: 10, TotalTokens: 1010},
		Choices: []openai.ChatCompletionChoice{{Message: msg, FinishReason: finish}}}
}

// stats returns the first request's time, the request count and the
// unexpected requests.
func (f *fakeLLM) stats() (time.Time, int, []string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.first, f.requests, append([]string(nil), f.bad...)
}
