package llm

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"

	openai "github.com/sashabaranov/go-openai"
)

// answer adapts a response for the caller: <think> blocks leave the
// content for ReasoningContent, and when tools were offered and the answer
// has no tool calls, calls written into the content become tool calls
// (Hermes/Qwen <tool_call>, Mistral [TOOL_CALLS], a JSON object naming an
// offered tool; under the text protocol, its fenced action).
func answer(resp openai.ChatCompletionResponse, tools []openai.Tool, text bool) openai.ChatCompletionResponse {
	known := toolNames(tools)
	for i := range resp.Choices {
		ch := &resp.Choices[i]
		m := &ch.Message
		reasoning, content := splitThink(m.Content)
		if reasoning != "" && m.ReasoningContent == "" {
			m.ReasoningContent = reasoning
		}
		m.Content = content
		if len(known) == 0 || len(m.ToolCalls) > 0 {
			continue
		}
		calls, rest := contentCalls(content, known, text)
		if len(calls) == 0 {
			continue
		}
		// Under the text protocol the content is the action, written again
		// from the call when the conversation is sent back (one action, in
		// one canonical form); otherwise the prose around the calls stays.
		m.ToolCalls, ch.FinishReason, m.Content = calls, openai.FinishReasonToolCalls, rest
		if text {
			m.Content = ""
		}
	}
	return resp
}

func toolNames(tools []openai.Tool) map[string]bool {
	out := map[string]bool{}
	for _, t := range tools {
		if t.Function != nil {
			out[t.Function.Name] = true
		}
	}
	return out
}

// splitThink separates a leading <think>…</think> block (DeepSeek-R1,
// Qwen3) from the answer. A block whose opening tag the chat template
// wrote (only </think> arrives) and an unclosed block (the answer was cut)
// are reasoning too.
func splitThink(content string) (reasoning, rest string) {
	const open, closing = "<think>", "</think>"
	t := strings.TrimLeft(content, " \t\r\n")
	if body, ok := strings.CutPrefix(t, open); ok {
		if r, after, found := strings.Cut(body, closing); found {
			return strings.TrimSpace(r), strings.TrimLeft(after, " \t\r\n")
		}
		return strings.TrimSpace(body), ""
	}
	if r, after, found := strings.Cut(content, closing); found && !strings.Contains(r, open) {
		return strings.TrimSpace(r), strings.TrimLeft(after, " \t\r\n")
	}
	return "", content
}

var (
	hermesCall = regexp.MustCompile(`(?s)<tool_call>\s*(.*?)\s*(?:</tool_call>|$)`)
	fenced     = regexp.MustCompile("(?s)```[a-zA-Z]*\\s*\n?(.*?)```")
	toolKey    = regexp.MustCompile(`"(?:tool|name)"\s*:\s*"([A-Za-z_][A-Za-z0-9_]*)"`)
)

// contentCalls reads tool calls written into the content. Under the text
// protocol only the first action counts (one per answer), and an action
// that names an offered tool but does not parse still becomes a call with
// its raw arguments, so it gets the same corrective answer as a malformed
// native call. rest is the content without the calls.
func contentCalls(content string, known map[string]bool, text bool) ([]openai.ToolCall, string) {
	if calls, rest := hermesCalls(content, known); len(calls) > 0 {
		return first(calls, text), rest
	}
	if before, after, ok := strings.Cut(content, "[TOOL_CALLS]"); ok {
		if calls := mistralCalls(after, known); len(calls) > 0 {
			return first(calls, text), strings.TrimSpace(before)
		}
	}
	for _, m := range fenced.FindAllStringSubmatchIndex(content, -1) {
		if c, ok := objectCall(content[m[2]:m[3]], known, text); ok {
			return []openai.ToolCall{c}, strings.TrimSpace(content[:m[0]] + content[m[1]:])
		}
	}
	if start, end, ok := objectSpan(content); ok {
		if c, ok := objectCall(content[start:end], known, text); ok {
			return []openai.ToolCall{c}, strings.TrimSpace(content[:start] + content[end:])
		}
	}
	return nil, content
}

func first(calls []openai.ToolCall, text bool) []openai.ToolCall {
	if text && len(calls) > 1 {
		return calls[:1]
	}
	return calls
}

func hermesCalls(content string, known map[string]bool) ([]openai.ToolCall, string) {
	var calls []openai.ToolCall
	for _, m := range hermesCall.FindAllStringSubmatch(content, -1) {
		if c, ok := objectCall(m[1], known, false); ok {
			calls = append(calls, c)
		}
	}
	if len(calls) == 0 {
		return nil, content
	}
	return calls, strings.TrimSpace(hermesCall.ReplaceAllString(content, ""))
}

// mistralCalls reads what follows [TOOL_CALLS]: a JSON array of
// {"name", "arguments"} objects, or name{arguments} / name[ARGS]{arguments}
// (the newer tokenizers).
func mistralCalls(s string, known map[string]bool) []openai.ToolCall {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "[") {
		var items []json.RawMessage
		if !lenient(s, &items) {
			return nil
		}
		var calls []openai.ToolCall
		for _, it := range items {
			if c, ok := objectCall(string(it), known, false); ok {
				calls = append(calls, c)
			}
		}
		return calls
	}
	name, args, _ := strings.Cut(s, "{")
	name = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(name), "[ARGS]"))
	if !known[name] {
		return nil
	}
	var raw json.RawMessage
	if !lenient("{"+args, &raw) {
		return nil
	}
	return []openai.ToolCall{call(name, raw)}
}

// objectCall reads one call object: {"tool"|"name": N, "arguments"|"parameters": A}.
func objectCall(s string, known map[string]bool, text bool) (openai.ToolCall, bool) {
	var obj struct {
		Tool       string          `json:"tool"`
		Name       string          `json:"name"`
		Arguments  json.RawMessage `json:"arguments"`
		Parameters json.RawMessage `json:"parameters"`
	}
	if !lenient(s, &obj) {
		if m := toolKey.FindStringSubmatch(s); text && m != nil && known[m[1]] {
			return call(m[1], json.RawMessage(rawArguments(s))), true // malformed: the tool answers why
		}
		return openai.ToolCall{}, false
	}
	name := strings.TrimSpace(obj.Tool + obj.Name)
	if obj.Tool != "" && obj.Name != "" {
		name = obj.Tool
	}
	if !known[name] {
		return openai.ToolCall{}, false
	}
	args := obj.Arguments
	if len(args) == 0 {
		args = obj.Parameters
	}
	return call(name, args), true
}

// rawArguments is the text after "arguments": of a malformed action.
func rawArguments(s string) string {
	if i := strings.Index(s, `"arguments"`); i >= 0 {
		if _, after, ok := strings.Cut(s[i+len(`"arguments"`):], ":"); ok {
			return strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(after), "}"))
		}
	}
	return s
}

// call is a tool call whose arguments are a JSON object's text: a
// JSON-encoded string is decoded once (some models double-encode).
func call(name string, args json.RawMessage) openai.ToolCall {
	text := strings.TrimSpace(string(args))
	var s string
	if strings.HasPrefix(text, `"`) && json.Unmarshal(args, &s) == nil {
		text = s
	}
	if text == "" || text == "null" {
		text = "{}"
	}
	var b bytes.Buffer
	if json.Compact(&b, []byte(text)) == nil {
		text = b.String()
	}
	return openai.ToolCall{Type: openai.ToolTypeFunction, Function: openai.FunctionCall{Name: name, Arguments: text}}
}

// lenient decodes JSON as models write it: surrounding blanks, trailing
// commas.
func lenient(s string, v any) bool {
	s = strings.TrimSpace(s)
	if json.Unmarshal([]byte(s), v) == nil {
		return true
	}
	return json.Unmarshal([]byte(dropTrailingCommas(s)), v) == nil
}

// dropTrailingCommas removes commas before a closing } or ] outside strings.
func dropTrailingCommas(s string) string {
	var b strings.Builder
	last := 0
	outsideStrings(s, 0, func(i int) bool {
		if s[i] != ',' {
			return true
		}
		j := i + 1
		for j < len(s) && strings.IndexByte(" \t\r\n", s[j]) >= 0 {
			j++
		}
		if j < len(s) && (s[j] == '}' || s[j] == ']') {
			b.WriteString(s[last:i])
			last = i + 1
		}
		return true
	})
	b.WriteString(s[last:])
	return b.String()
}

// objectSpan finds the first balanced JSON object in s; an unbalanced one
// runs to the end (for the malformed answer).
func objectSpan(s string) (int, int, bool) {
	start := strings.IndexByte(s, '{')
	if start < 0 {
		return 0, 0, false
	}
	depth, end := 0, len(s)
	outsideStrings(s, start, func(i int) bool {
		switch s[i] {
		case '{':
			depth++
		case '}':
			if depth--; depth == 0 {
				end = i + 1
				return false
			}
		}
		return true
	})
	return start, end, true
}

// outsideStrings calls fn with the index of each byte of s from start that
// is not inside a JSON string, until fn returns false.
func outsideStrings(s string, start int, fn func(i int) bool) {
	inStr, esc := false, false
	for i := start; i < len(s); i++ {
		if inStr {
			inStr, esc = inString(s[i], esc)
			continue
		}
		inStr = s[i] == '"'
		if !fn(i) {
			return
		}
	}
}

// inString steps through a JSON string: whether the string goes on after
// ch, and whether the next byte is escaped.
func inString(ch byte, esc bool) (bool, bool) {
	switch {
	case esc:
		return true, false
	case ch == '\\':
		return true, true
	}
	return ch != '"', false
}
