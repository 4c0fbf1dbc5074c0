package agent

import (
	"encoding/json"

	openai "github.com/sashabaranov/go-openai"
)

// shortened replaces an old tool output when the context runs short.
const shortened = "[output removed to save context; call the tool again if you still need it]"

// estimateTokens is the estimate of the variable parts of a prompt (diffs,
// tool outputs) for budgets and the context limit: bytes/4, which costs
// nothing per request. Measured against cl100k on this repository's files
// it is 0.86 of the count on Go source (median; 0.62-1.19), 1.07 on
// Markdown.
func estimateTokens(n int) int { return (n + 3) / 4 }

// conv is one conversation with its estimated size, kept per message so a
// request costs only the new messages.
type conv struct {
	msgs  []openai.ChatCompletionMessage
	size  []int
	total int
}

func (c *conv) add(m openai.ChatCompletionMessage) {
	n := estimateTokens(len(m.Content) + len(m.ReasoningContent))
	for _, tc := range m.ToolCalls {
		n += estimateTokens(len(tc.Function.Name)+len(tc.Function.Arguments)) + 8
	}
	c.addSized(m, n)
}

// addSized appends m whose content is n tokens (4 more for the message).
func (c *conv) addSized(m openai.ChatCompletionMessage, n int) {
	c.msgs = append(c.msgs, m)
	c.size = append(c.size, n+4)
	c.total += n + 4
}

// system starts the conversation with a system prompt of known size.
func (c *conv) system(p counted) {
	c.addSized(openai.ChatCompletionMessage{Role: openai.ChatMessageRoleSystem, Content: p.text}, p.tokens)
}

func (c *conv) user(text string) {
	c.add(openai.ChatCompletionMessage{Role: openai.ChatMessageRoleUser, Content: text})
}

// fit shortens the oldest tool outputs until the conversation is at most
// limit tokens. The system prompt and the first user message (the diff)
// are never touched; false means it cannot fit.
func (c *conv) fit(limit int) bool {
	for i := 2; i < len(c.msgs) && c.total > limit; i++ {
		m := &c.msgs[i]
		if m.Role != openai.ChatMessageRoleTool || m.Content == shortened {
			continue
		}
		n := estimateTokens(len(shortened)) + 4
		c.total += n - c.size[i]
		c.size[i], m.Content = n, shortened
	}
	return c.total <= limit
}

// counted is a fixed text and its size in tokens, counted once per run.
type counted struct {
	text   string
	tokens int
}

func newCounted(text string, count func(string) int) counted {
	return counted{text: text, tokens: count(text)}
}

// toolSet is the tools offered in a request and what their schemas add to
// it, counted once per run instead of marshalled for every request.
type toolSet struct {
	tools  []openai.Tool
	tokens int
}

func newToolSet(ts []openai.Tool, count func(string) int) toolSet {
	if len(ts) == 0 {
		return toolSet{}
	}
	b, _ := json.Marshal(ts) // plain structs: cannot fail
	return toolSet{tools: ts, tokens: count(string(b))}
}

// tokenCounter estimates the fixed texts of a run (the system prompts and
// the tools' schemas, counted once): bytes/3, which overestimates them by
// 10-55% against cl100k (measured on this repository's prompts and JSON),
// a safe side for the pre-flight context limit. Usage and budgets count
// what the provider reports.
func tokenCounter() func(string) int {
	return func(s string) int { return (len(s) + 2) / 3 }
}
