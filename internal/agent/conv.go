package agent

import (
	"encoding/json"

	openai "github.com/sashabaranov/go-openai"
)

// shortened replaces an old tool output when the context runs short.
const shortened = "[output removed to save context; call the tool again if you still need it]"

// estimateTokens is the prompt-size estimate used for budgets and the
// context limit: bytes/4, which overestimates code slightly (cl100k gives
// about 4.4 bytes per token on Go source) and costs nothing per request.
func estimateTokens(n int) int { return (n + 3) / 4 }

// conv is one conversation with its estimated size, kept per message so a
// request costs only the new messages.
type conv struct {
	msgs  []openai.ChatCompletionMessage
	size  []int
	total int
}

func (c *conv) add(m openai.ChatCompletionMessage) {
	n := estimateTokens(len(m.Content)+len(m.ReasoningContent)) + 4
	for _, tc := range m.ToolCalls {
		n += estimateTokens(len(tc.Function.Name)+len(tc.Function.Arguments)) + 8
	}
	c.msgs = append(c.msgs, m)
	c.size = append(c.size, n)
	c.total += n
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

// toolTokens estimates what the tool schemas add to a request.
func toolTokens(ts []openai.Tool) int {
	if len(ts) == 0 {
		return 0
	}
	b, _ := json.Marshal(ts) // plain structs: cannot fail
	return estimateTokens(len(b))
}
