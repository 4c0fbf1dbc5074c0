package agent

import (
	"encoding/json"

	openai "github.com/sashabaranov/go-openai"
	"github.com/tiktoken-go/tokenizer"
)

// shortened replaces an old tool output when the context runs short.
const shortened = "[output removed to save context; call the tool again if you still need it]"

// estimateTokens is the estimate of the variable parts of a prompt (diffs,
// tool outputs) for budgets and the context limit: bytes/4, which
// overestimates code slightly (cl100k gives about 4.4 bytes per token on Go
// source) and costs nothing per request.
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

// tokenCounter counts tokens with the offline cl100k tokenizer (loaded once
// per process by the library, about 8 ms), or bytes/4 if it is unavailable.
func tokenCounter() func(string) int {
	enc, err := tokenizer.Get(tokenizer.Cl100kBase)
	return func(s string) int {
		if err == nil {
			if n, cerr := enc.Count(s); cerr == nil {
				return n
			}
		}
		return estimateTokens(len(s))
	}
}
