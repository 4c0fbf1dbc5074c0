package llmtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	openai "github.com/sashabaranov/go-openai"
)

// Quirks make the server answer like a particular OpenAI-compatible server
// does, with the wording its tracker reports (docs/reference/models-and-quality.md).
// The zero value is OpenAI's own behaviour.
type Quirks struct {
	// NoTools refuses a request with tools with HTTP 400: "ollama"
	// ("<model> does not support tools") or "vllm" (auto tool choice
	// without a tool parser, error object unwrapped as older vLLM sends it).
	NoTools string
	// TextModel writes the scripted calls of a request without tools as
	// the text protocol's fenced action (a model following ocr's prompt);
	// NoTools implies it.
	TextModel bool
	// CallsInContent writes the scripted calls into the content, with no
	// tool_calls, as a server without a tool parser returns them:
	// "hermes" (<tool_call>{...}</tool_call>), "mistral" ([TOOL_CALLS] [...])
	// or "json" (a bare JSON object).
	CallsInContent string
	// Think puts the answer's reasoning at the start of the content in
	// <think>…</think> (DeepSeek-R1, Qwen3) instead of reasoning_content,
	// and reports it as completion_tokens_details.reasoning_tokens.
	Think bool
	// Refuse lists request keys refused with a 400 when present
	// (temperature, seed, max_completion_tokens), each worded as OpenAI or
	// Azure words it.
	Refuse []string
	// Window is the context window in tokens (prompt: request bytes/4, plus
	// the requested completion); a longer request gets WindowStyle's 400:
	// "openai" (default), "vllm", "llamacpp", "anthropic" or "lmstudio".
	Window      int
	WindowStyle string
	// MaxOutput is the most completion tokens the model allows; a request
	// asking for more (max_completion_tokens or max_tokens) gets
	// MaxOutputStyle's 400: "openai" (default) or "anthropic".
	MaxOutput      int
	MaxOutputStyle string
	// NoCallIDs sends tool calls with an empty id, as Google's
	// OpenAI-compatible endpoint does.
	NoCallIDs bool
	// Cache reports prompt_tokens_details.cached_tokens as OpenAI computes
	// it: the longest prefix shared with an earlier request, from 1,024
	// tokens, in steps of 128.
	Cache bool
}

// SetQuirks sets the server's quirks (before the first request).
func (s *Server) SetQuirks(q Quirks) { s.mu.Lock(); s.quirks = q; s.mu.Unlock() }

// refusal is the error a quirk makes of req ("" status 0: none).
func (s *Server) refusal(req Request) (int, string) {
	s.mu.Lock()
	q := s.quirks
	s.mu.Unlock()
	if len(req.Body.Tools) > 0 {
		switch q.NoTools {
		case "ollama":
			return http.StatusBadRequest, errorJSON(fmt.Sprintf("registry.ollama.ai/library/%s does not support tools", req.Body.Model), "api_error", "")
		case "vllm":
			return http.StatusBadRequest, `{"object":"error","message":"\"auto\" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set","type":"BadRequestError","param":null,"code":400}`
		}
	}
	for _, k := range q.Refuse {
		if _, ok := req.Raw[k]; ok {
			return http.StatusBadRequest, refuseParam(k)
		}
	}
	if asked := max(req.Body.MaxCompletionTokens, completionOf(req.Raw)); q.MaxOutput > 0 && asked > q.MaxOutput {
		return http.StatusBadRequest, overOutput(q.MaxOutputStyle, q.MaxOutput, asked, req.Body.Model)
	}
	if q.Window > 0 {
		prompt := req.Size / 4
		want := prompt + max(req.Body.MaxCompletionTokens, completionOf(req.Raw))
		if want > q.Window {
			return http.StatusBadRequest, overWindow(q.WindowStyle, q.Window, prompt, want)
		}
	}
	return 0, ""
}

func errorJSON(msg, typ, param string) string {
	e := map[string]any{"message": msg, "type": typ, "param": nil, "code": nil}
	if param != "" {
		e["param"] = param
	}
	b, _ := json.Marshal(map[string]any{"error": e}) // strings: cannot fail
	return string(b)
}

// refuseParam words a parameter's refusal as the servers that refuse it do.
func refuseParam(k string) string {
	switch k {
	case "temperature":
		b, _ := json.Marshal(map[string]any{"error": map[string]any{"message": "Unsupported value: 'temperature' does not support 0 with this model. Only the default (1) value is supported.",
			"type": "invalid_request_error", "param": "temperature", "code": "unsupported_value"}})
		return string(b)
	case "max_completion_tokens": // Azure OpenAI before api-version 2024-09-01-preview
		return errorJSON("Unrecognized request argument supplied: max_completion_tokens", "invalid_request_error", "")
	}
	b, _ := json.Marshal(map[string]any{"error": map[string]any{"message": fmt.Sprintf("Unsupported parameter: '%s' is not supported with this model.", k),
		"type": "invalid_request_error", "param": k, "code": "unsupported_parameter"}})
	return string(b)
}

// overOutput words the refusal of too many completion tokens as OpenAI
// (which names max_tokens whichever key was sent) and Anthropic's
// OpenAI-compatible endpoint do.
func overOutput(style string, most, asked int, model string) string {
	if style == "anthropic" {
		return errorJSON(fmt.Sprintf("max_tokens: %d > %d, which is the maximum allowed number of output tokens for %s", asked, most, model),
			"invalid_request_error", "")
	}
	return errorJSON(fmt.Sprintf("max_tokens is too large: %d. This model supports at most %d completion tokens, whereas you provided %d.", asked, most, asked),
		"invalid_request_error", "max_tokens")
}

// overWindow words an over-context refusal as each server does.
func overWindow(style string, window, prompt, want int) string {
	switch style {
	case "llamacpp":
		b, _ := json.Marshal(map[string]any{"error": map[string]any{"code": 400,
			"message": "the request exceeds the available context size, try increasing it",
			"type":    "exceed_context_size_error", "n_prompt_tokens": prompt, "n_ctx": window}})
		return string(b)
	case "anthropic":
		return errorJSON(fmt.Sprintf("prompt is too long: %d tokens > %d maximum", prompt, window), "invalid_request_error", "")
	case "lmstudio": // the error is a string, not an object (lmstudio-bug-tracker, opencode#353)
		b, _ := json.Marshal(map[string]any{"error": fmt.Sprintf("The number of tokens to keep from the initial prompt is greater than the context length (n_keep: %d>= n_ctx: %d). Try to load the model with a larger context length, or provide a shorter input.", prompt, window)})
		return string(b)
	case "vllm":
		b, _ := json.Marshal(map[string]any{"object": "error", "message": fmt.Sprintf("This model's maximum context length is %d tokens. However, you requested %d tokens (%d in the messages, %d in the completion). Please reduce the length of the messages or completion.", window, want, prompt, want-prompt),
			"type": "BadRequestError", "param": nil, "code": 400})
		return string(b)
	}
	return errorJSON(fmt.Sprintf("This model's maximum context length is %d tokens. However, your messages resulted in %d tokens. Please reduce the length of the messages.", window, prompt),
		"invalid_request_error", "messages")
}

// quirkMessage rewrites an answer's message as the quirks say.
func (s *Server) quirkMessage(req Request, msg *openai.ChatCompletionMessage, usage *openai.Usage) {
	s.mu.Lock()
	q := s.quirks
	s.mu.Unlock()
	if q.Think && msg.ReasoningContent != "" {
		msg.Content = "<think>\n" + msg.ReasoningContent + "\n</think>\n\n" + msg.Content
		msg.ReasoningContent = ""
	}
	textModel := len(req.Body.Tools) == 0 && (q.NoTools != "" || q.TextModel)
	if len(msg.ToolCalls) > 0 && (q.CallsInContent != "" || textModel) {
		style := q.CallsInContent
		if textModel {
			style = "text" // a model following the text protocol of the prompt
		}
		msg.Content = strings.TrimSpace(msg.Content + "\n" + callsText(style, msg.ToolCalls))
		msg.ToolCalls = nil
	}
	if q.NoCallIDs {
		for i := range msg.ToolCalls {
			msg.ToolCalls[i].ID = ""
		}
	}
	if q.Cache {
		usage.PromptTokensDetails = &openai.PromptTokensDetails{CachedTokens: s.cached(req)}
	}
}

// callsText writes calls as a model does without a server-side parser.
func callsText(style string, calls []openai.ToolCall) string {
	obj := func(c openai.ToolCall, key string) string {
		return fmt.Sprintf(`{%q: %q, "arguments": %s}`, key, c.Function.Name, c.Function.Arguments)
	}
	var parts []string
	switch style {
	case "hermes":
		for _, c := range calls {
			parts = append(parts, "<tool_call>\n"+obj(c, "name")+"\n</tool_call>")
		}
	case "mistral":
		for _, c := range calls {
			parts = append(parts, obj(c, "name"))
		}
		return "[TOOL_CALLS] [" + strings.Join(parts, ", ") + "]"
	case "json":
		return obj(calls[0], "name")
	default: // the text protocol: one fenced action
		return "I will call " + calls[0].Function.Name + ".\n```json\n" + obj(calls[0], "tool") + "\n```"
	}
	return strings.Join(parts, "\n")
}

// cached is the prompt tokens an OpenAI-style prefix cache would serve:
// the longest prefix of the request's prompt (tools, then messages) shared
// with an earlier request, counted from 1,024 tokens in steps of 128.
func (s *Server) cached(req Request) int {
	p := PromptText(req.Body)
	s.mu.Lock()
	best := 0
	for _, prev := range s.prompts {
		best = max(best, commonPrefix(prev, p))
	}
	s.prompts = append(s.prompts, p)
	s.mu.Unlock()
	tokens := best / 4
	if tokens < 1024 {
		return 0
	}
	return tokens - tokens%128
}

// PromptText is a request's prompt in the order a provider renders it:
// the tool definitions, then each message's role and content (and calls).
func PromptText(b openai.ChatCompletionRequest) string {
	var sb strings.Builder
	if len(b.Tools) > 0 {
		t, _ := json.Marshal(b.Tools) // plain structs: cannot fail
		sb.Write(t)
	}
	for _, m := range b.Messages {
		sb.WriteString("\n<|" + m.Role + "|>\n" + m.Content)
		for _, c := range m.ToolCalls {
			sb.WriteString("\n" + c.Function.Name + c.Function.Arguments)
		}
	}
	return sb.String()
}

func commonPrefix(a, b string) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// completionOf is the max_tokens of a raw body (the older parameter some
// servers want instead of max_completion_tokens).
func completionOf(raw map[string]any) int {
	n, _ := raw["max_tokens"].(float64)
	return int(n)
}
