package llmtest

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// pick finds the answer for req, records req and advances the script;
// requests no script matches go to the handler.
func (s *Server) pick(req *Request) (Answer, bool) {
	a, h, ok := s.scripted(req)
	if ok || h == nil {
		return a, ok
	}
	return h(*req), true
}

func (s *Server) scripted(req *Request) (Answer, Handler, bool) {
	head := conversationHead(req.Body)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sequence++
	req.Seq = s.sequence
	for _, sc := range s.scripts {
		if !matches(head, sc.Match) || len(sc.Answers) == 0 || (sc.next >= len(sc.Answers) && !sc.Repeat) {
			continue
		}
		i := min(sc.next, len(sc.Answers)-1)
		sc.next++
		req.Script = sc.Name
		s.keep(*req)
		return sc.Answers[i], nil, true
	}
	s.keep(*req)
	return Answer{}, s.handler, false
}

func (s *Server) keep(r Request) {
	if s.record {
		s.reqs = append(s.reqs, r)
	}
}

// conversationHead is the system prompt and first user message.
func conversationHead(b openai.ChatCompletionRequest) string {
	var sb strings.Builder
	user := false
	for _, m := range b.Messages {
		if m.Role == openai.ChatMessageRoleSystem || (m.Role == openai.ChatMessageRoleUser && !user) {
			sb.WriteString(m.Content)
			sb.WriteByte('\n')
			user = user || m.Role == openai.ChatMessageRoleUser
		}
	}
	return sb.String()
}

func matches(head string, subs []string) bool {
	for _, m := range subs {
		if !strings.Contains(head, m) {
			return false
		}
	}
	return true
}

// answer writes a for req.
func (s *Server) answer(w http.ResponseWriter, req Request, a Answer) {
	if a.RetryAfter != "" {
		w.Header().Set("Retry-After", a.RetryAfter)
	}
	switch {
	case a.Body != "":
		writeRaw(w, a)
		return
	case a.Status != 0:
		msg := a.Message
		if msg == "" {
			msg = http.StatusText(a.Status)
		}
		writeError(w, a.Status, msg)
		return
	}
	body, err := json.Marshal(s.response(req, a))
	if err != nil {
		s.t.Errorf("llmtest: encode response: %v", err)
		return
	}
	if a.Truncate {
		body = body[:len(body)/2]
	}
	w.Header().Set("Content-Type", "application/json")
	// A write fails only when the client has gone; there is no one to tell.
	_, _ = w.Write(body)
}

func (s *Server) response(req Request, a Answer) openai.ChatCompletionResponse {
	n := req.Seq
	msg := openai.ChatCompletionMessage{Role: openai.ChatMessageRoleAssistant, Content: a.Text, ReasoningContent: a.Reasoning}
	finish := openai.FinishReasonStop
	for i, c := range a.Calls {
		id := fmt.Sprintf("call_%d_%d", n, i)
		if a.OmitIDs {
			id = ""
		}
		msg.ToolCalls = append(msg.ToolCalls, openai.ToolCall{ID: id,
			Type: openai.ToolTypeFunction, Function: openai.FunctionCall{Name: c.Name, Arguments: c.Args}})
		finish = openai.FinishReasonToolCalls
	}
	usage := openai.Usage{PromptTokens: req.Size / 4, CompletionTokens: completionSize(a)/4 + 1}
	if a.Usage != nil {
		usage = *a.Usage
	}
	if a.Reasoning != "" {
		usage.CompletionTokensDetails = &openai.CompletionTokensDetails{ReasoningTokens: len(a.Reasoning)/4 + 1}
	}
	s.quirkMessage(req, &msg, &usage)
	if len(msg.ToolCalls) == 0 {
		finish = openai.FinishReasonStop
	}
	usage.TotalTokens = usage.PromptTokens + usage.CompletionTokens
	return openai.ChatCompletionResponse{ID: fmt.Sprintf("chatcmpl-%d", n), Object: "chat.completion",
		Created: time.Now().Unix(), Model: req.Body.Model, Usage: usage,
		Choices: []openai.ChatCompletionChoice{{Index: 0, Message: msg, FinishReason: finish}}}
}

func completionSize(a Answer) int {
	n := len(a.Text) + len(a.Reasoning)
	for _, c := range a.Calls {
		n += len(c.Name) + len(c.Args)
	}
	return n
}

// writeRaw writes a verbatim body.
func writeRaw(w http.ResponseWriter, a Answer) {
	ct, status := a.ContentType, a.Status
	if ct == "" {
		ct = "text/html; charset=utf-8"
	}
	if status == 0 {
		status = http.StatusOK
	}
	w.Header().Set("Content-Type", ct)
	w.WriteHeader(status)
	_, _ = io.WriteString(w, a.Body) // fails only when the client has gone
}

// writeError writes an OpenAI-style error body.
func writeError(w http.ResponseWriter, status int, msg string) {
	typ := "invalid_request_error"
	switch {
	case status == http.StatusTooManyRequests:
		typ = "rate_limit_error"
	case status >= 500:
		typ = "server_error"
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	// Encoding a map of strings fails only when the client has gone.
	_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"message": msg, "type": typ}})
}

// validate enforces what OpenAI enforces: a model, messages, and every tool
// message answering a tool call of the preceding assistant message, with
// every call answered before the conversation moves on.
func validate(b openai.ChatCompletionRequest) error {
	if b.Model == "" {
		return errors.New("model is empty")
	}
	if len(b.Messages) == 0 {
		return errors.New("messages is empty")
	}
	pending := map[string]bool{}
	for i, m := range b.Messages {
		switch m.Role {
		case openai.ChatMessageRoleTool:
			if !pending[m.ToolCallID] {
				return fmt.Errorf("message %d: tool result %q answers no pending tool call", i, m.ToolCallID)
			}
			delete(pending, m.ToolCallID)
			continue
		case openai.ChatMessageRoleSystem, openai.ChatMessageRoleUser, openai.ChatMessageRoleAssistant:
		default:
			return fmt.Errorf("message %d: unknown role %q", i, m.Role)
		}
		if len(pending) > 0 {
			return fmt.Errorf("message %d: %d tool call(s) of the previous answer have no result", i, len(pending))
		}
		for _, c := range m.ToolCalls {
			pending[c.ID] = true
		}
	}
	if len(pending) > 0 {
		return fmt.Errorf("the last answer's %d tool call(s) have no result", len(pending))
	}
	return nil
}
