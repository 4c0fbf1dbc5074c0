// Package llmtest is a scripted OpenAI-compatible chat-completions server
// for tests: per-conversation scripts of answers (text, tool calls, several
// per answer, malformed arguments, unknown tools, empty answers), injected
// HTTP errors with Retry-After, latency, hanging requests and truncated
// bodies. It checks every request strictly, records it decoded, and fails
// the test on unexpected requests and on unused answers.
package llmtest

import (
	"encoding/json"
	"net/http"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// Script is the answers of one conversation, given in order. A request
// belongs to the first script whose Match strings all occur in its system
// and first user messages (a marker, or the file path under review).
type Script struct {
	// Name labels the script in failure messages; defaults to Match joined.
	Name  string
	Match []string
	// Answers are consumed one per request, injected errors included: a 429
	// followed by a text answer serves the retry with the text.
	Answers []Answer
	// Repeat serves the last answer again once the others are used up.
	Repeat bool
}

// Answer is one response of the server.
type Answer struct {
	// Text is the assistant's content.
	Text string
	// Calls are the tool calls of the answer, in order.
	Calls []Call
	// Reasoning is returned as reasoning_content (DeepSeek style).
	Reasoning string
	// Status, when non-zero, makes the answer an HTTP error with an
	// OpenAI-style error body (429, 500, 400...).
	Status int
	// RetryAfter is sent as the Retry-After header of an error answer.
	RetryAfter string
	// Message replaces the error message of a Status answer (a provider
	// that quotes the key, a long explanation).
	Message string
	// Body, when set, is sent verbatim with Status (default 200) and
	// ContentType (default text/html): a web server's page where an
	// OpenAI answer was expected, or plain text.
	Body        string
	ContentType string
	// Delay is added latency before answering.
	Delay time.Duration
	// Hang never answers: the request ends when the client gives up.
	Hang bool
	// Truncate sends a 200 with only the first half of the JSON body.
	Truncate bool
	// OmitIDs sends tool calls without ids, as some local servers do.
	OmitIDs bool
	// Usage overrides the computed usage (prompt: request bytes/4).
	Usage *openai.Usage
}

// Call is one tool call of an answer. Args is sent verbatim, so it may be
// malformed JSON on purpose.
type Call struct {
	Name string
	Args string
}

// Tool is a well-formed call of name with args encoded as JSON.
func Tool(name string, args any) Call {
	b, err := json.Marshal(args)
	if err != nil {
		panic("llmtest.Tool: " + err.Error()) // a test bug, not a runtime condition
	}
	return Call{Name: name, Args: string(b)}
}

// Done is a task_done call with state DONE.
func Done() Call { return Tool("task_done", map[string]string{"state": "DONE"}) }

// Text is an answer without tool calls.
func Text(s string) Answer { return Answer{Text: s} }

// Calls is an answer made of tool calls only.
func Calls(c ...Call) Answer { return Answer{Calls: c} }

// Request is one recorded request.
type Request struct {
	// Script is the name of the script that answered ("" for the handler).
	Script string
	Body   openai.ChatCompletionRequest
	// Raw is the decoded body as a generic map (for fields go-openai does
	// not model, such as those merged from OCR_LLM_EXTRA_BODY).
	Raw map[string]any
	// Size is the body's length in bytes.
	Size int
	// Seq numbers requests from 1 in arrival order.
	Seq int
	// Header and Query are the request's headers and raw query string.
	Header http.Header
	Query  string
}

// FirstUser is the content of the first user message.
func (r Request) FirstUser() string {
	for _, m := range r.Body.Messages {
		if m.Role == openai.ChatMessageRoleUser {
			return m.Content
		}
	}
	return ""
}

// ToolNames lists the names of the tools offered in the request.
func (r Request) ToolNames() []string {
	var out []string
	for _, t := range r.Body.Tools {
		if t.Function != nil {
			out = append(out, t.Function.Name)
		}
	}
	return out
}
