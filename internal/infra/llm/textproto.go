package llm

import (
	_ "embed"
	"encoding/json"
	"strings"
	"text/template"

	openai "github.com/sashabaranov/go-openai"
)

//go:embed text_protocol.tmpl
var textProtocolText string

var textProtocol = template.Must(template.New("text_protocol").Parse(textProtocolText))

type toolDoc struct{ Name, Description, Schema string }

// describeTools is the text protocol's part of the system prompt: how to
// write an action, and each tool with its schema. The same tools give the
// same bytes, so the prompt's prefix stays cacheable.
func describeTools(tools []openai.Tool) string {
	docs := make([]toolDoc, 0, len(tools))
	for _, t := range tools {
		if t.Function == nil {
			continue
		}
		schema, err := json.Marshal(t.Function.Parameters)
		if err != nil || string(schema) == "null" {
			schema = []byte("{}")
		}
		docs = append(docs, toolDoc{Name: t.Function.Name, Description: t.Function.Description, Schema: string(schema)})
	}
	var b strings.Builder
	if err := textProtocol.Execute(&b, docs); err != nil {
		panic("llm: text protocol template: " + err.Error()) // a fixed template over plain strings
	}
	return b.String()
}

// textRequest rewrites a request with tools for the text protocol: no
// tools field; the tools described at the end of the system prompt; each
// earlier call written as its action, each result sent back as a user
// message naming its tool; consecutive user messages joined (some chat
// templates require roles to alternate).
func textRequest(req openai.ChatCompletionRequest) openai.ChatCompletionRequest {
	out := req
	out.Tools, out.ToolChoice, out.ParallelToolCalls = nil, nil, nil
	names := map[string]string{}
	msgs := make([]openai.ChatCompletionMessage, 0, len(req.Messages)+1)
	described := len(req.Tools) == 0 // nothing to describe: the final answer
	for _, m := range req.Messages {
		m.ReasoningContent = ""
		switch {
		case m.Role == openai.ChatMessageRoleSystem && !described:
			m.Content += "\n" + describeTools(req.Tools)
			described = true
		case m.Role == openai.ChatMessageRoleAssistant && len(m.ToolCalls) > 0:
			for _, c := range m.ToolCalls {
				names[c.ID] = c.Function.Name
			}
			if strings.TrimSpace(m.Content) == "" {
				m.Content = actions(m.ToolCalls)
			}
			m.ToolCalls = nil
		case m.Role == openai.ChatMessageRoleTool:
			m = openai.ChatCompletionMessage{Role: openai.ChatMessageRoleUser,
				Content: "Result of " + names[m.ToolCallID] + ":\n" + m.Content}
		}
		if n := len(msgs); n > 0 && m.Role == openai.ChatMessageRoleUser && msgs[n-1].Role == openai.ChatMessageRoleUser {
			msgs[n-1].Content += "\n\n" + m.Content
			continue
		}
		msgs = append(msgs, m)
	}
	if !described {
		msgs = append([]openai.ChatCompletionMessage{{Role: openai.ChatMessageRoleSystem,
			Content: strings.TrimSpace(describeTools(req.Tools))}}, msgs...)
	}
	out.Messages = msgs
	return out
}

// actions writes calls as the text protocol's actions.
func actions(calls []openai.ToolCall) string {
	parts := make([]string, 0, len(calls))
	for _, c := range calls {
		args := strings.TrimSpace(c.Function.Arguments)
		if !json.Valid([]byte(args)) {
			b, _ := json.Marshal(args) // a string: cannot fail
			args = string(b)
		}
		parts = append(parts, "```json\n{\"tool\": \""+c.Function.Name+"\", \"arguments\": "+args+"}\n```")
	}
	return strings.Join(parts, "\n")
}
