package llm

import (
	"context"
	"encoding/json"
	"errors"
	"sort"
	"strconv"
	"strings"
	"sync"

	openai "github.com/sashabaranov/go-openai"
)

// Tool protocols (OCR_LLM_TOOLS).
const (
	// ToolsAuto uses native tool calls and switches to the text protocol
	// for the rest of the run when the endpoint refuses tools.
	ToolsAuto = "auto"
	// ToolsNative always sends native tool calls.
	ToolsNative = "native"
	// ToolsText always uses the text protocol.
	ToolsText = "text"
)

// adaptations is what a Client learned about its endpoint during the run:
// the tool protocol in use, the request parameters it refuses, its context
// window. Each lesson is learned once, logged once, and kept for the run.
type adaptations struct {
	mu      sync.Mutex
	text    bool
	textWhy string
	// dropped are body keys the endpoint refused; renamed maps a refused key
	// to the one sent instead (max_completion_tokens → max_tokens).
	dropped map[string]bool
	renamed map[string]string
	// maxOut caps the completion tokens asked for (max_completion_tokens,
	// max_tokens) at what the endpoint said it allows; 0 = no cap.
	maxOut int
	window int
	notes  []string
}

func newAdaptations(mode string) *adaptations {
	a := &adaptations{dropped: map[string]bool{}, renamed: map[string]string{}}
	if mode == ToolsText {
		a.text, a.textWhy = true, "OCR_LLM_TOOLS=text"
	}
	return a
}

// textMode reports whether requests with tools use the text protocol.
func (a *adaptations) textMode() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.text
}

// rewrite applies the refused parameters and the completion cap to a JSON
// body's top-level keys.
func (a *adaptations) rewrite(m map[string]json.RawMessage) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	changed := a.capOutput(m)
	for k := range a.dropped {
		if v, ok := m[k]; ok {
			delete(m, k)
			if to := a.renamed[k]; to != "" {
				m[to] = v
			}
			changed = true
		}
	}
	return changed
}

// capOutput lowers the completion tokens asked for to maxOut; the caller
// holds mu.
func (a *adaptations) capOutput(m map[string]json.RawMessage) bool {
	if a.maxOut <= 0 {
		return false
	}
	changed := false
	for _, k := range outputKeys {
		var n int
		if v, ok := m[k]; ok && json.Unmarshal(v, &n) == nil && n > a.maxOut {
			m[k] = json.RawMessage(strconv.Itoa(a.maxOut))
			changed = true
		}
	}
	return changed
}

// outputKeys are the request keys that ask for a number of completion
// tokens.
var outputKeys = []string{"max_completion_tokens", "max_tokens"}

func (a *adaptations) active() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.dropped) > 0 || a.maxOut > 0
}

// note records what was adapted, for the log and the run's summary.
func (a *adaptations) note(s string) {
	a.notes = append(a.notes, s)
}

// Protocol says which tool protocol the client uses and why.
func (c *Client) Protocol() (name, why string) {
	c.adapt.mu.Lock()
	defer c.adapt.mu.Unlock()
	if c.adapt.text {
		return ToolsText, c.adapt.textWhy
	}
	if c.mode == ToolsNative {
		return ToolsNative, "OCR_LLM_TOOLS=native"
	}
	return ToolsNative, "the default; ocr switches to the text protocol if the endpoint refuses tools"
}

// Adaptations lists what the client changed for its endpoint during the
// run, one sentence each, in the order learned (for the run's summary).
func (c *Client) Adaptations() []string {
	c.adapt.mu.Lock()
	defer c.adapt.mu.Unlock()
	return append([]string(nil), c.adapt.notes...)
}

// Window is the context window the endpoint reported in an over-context
// error (0 when none was reported).
func (c *Client) Window() int {
	c.adapt.mu.Lock()
	defer c.adapt.mu.Unlock()
	return c.adapt.window
}

// Chat sends req (Model, temperature and seed defaulted), retrying transient failures (429, 5xx,
// resets) with exponential backoff and jitter, honouring Retry-After. It
// adapts to the endpoint: a 400 refusing tools switches the run to the
// text protocol (OCR_LLM_TOOLS=auto), a 400 refusing a parameter
// (temperature, seed, max_completion_tokens...) drops it, or sends
// max_tokens, for the rest of the run; each lesson costs one retry, once.
// Tool calls written into the content are read as calls, and <think>
// blocks move to ReasoningContent. Failures are *Error; one whose StopsRun
// is true will fail every other request the same way.
func (c *Client) Chat(ctx context.Context, req openai.ChatCompletionRequest) (openai.ChatCompletionResponse, error) {
	if req.Model == "" {
		req.Model = c.model
	}
	c.sampling(&req)
	tried := map[string]bool{}
	for {
		text := c.adapt.textMode() && (len(req.Tools) > 0 || toolTurns(req.Messages))
		sent := req
		if text {
			sent = textRequest(req)
		}
		resp, err := c.send(ctx, sent)
		if err == nil {
			return answer(resp, req.Tools, text), nil
		}
		var e *Error
		if !errors.As(err, &e) {
			return resp, err
		}
		lesson := c.learn(ctx, e, len(req.Tools) > 0 && !text)
		if lesson == "" || tried[lesson] {
			return resp, err
		}
		tried[lesson] = true
	}
}

// toolTurns reports whether a conversation holds tool calls or results
// (a final request without tools still sends them as text).
func toolTurns(msgs []openai.ChatCompletionMessage) bool {
	for _, m := range msgs {
		if len(m.ToolCalls) > 0 || m.Role == openai.ChatMessageRoleTool {
			return true
		}
	}
	return false
}

// learn takes a lesson from a refused request (tools: it offered native
// tools) and names it, "" when there is none and the request is not worth
// sending again. A lesson another request in flight has just learned is
// named too: this request was sent before it, and goes again adapted
// (Chat sends a request again at most once per lesson).
func (c *Client) learn(ctx context.Context, e *Error, tools bool) string {
	if e.Kind != KindRejected {
		return ""
	}
	text := strings.ToLower(e.Message + " " + e.body)
	if w, ok := contextWindow(text); ok {
		e.Window = w
		c.learnWindow(ctx, w)
		return ""
	}
	if tools && c.mode != ToolsNative && refusesTools(text) {
		c.learnText(e)
		return "tools"
	}
	if n, ok := outputCap(text); ok && c.learnOutputCap(ctx, n, e) {
		return "max output"
	}
	if p, to := refusedParam(text, e.param); p != "" && c.learnParam(ctx, p, to, e) {
		return "param " + p
	}
	return ""
}

// learnText switches the run to the text protocol, saying so once.
func (c *Client) learnText(e *Error) {
	a := c.adapt
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.text {
		return
	}
	a.text = true
	a.textWhy = "the endpoint refused tools (HTTP 400: " + Clip(e.Message, 120) + ")"
	a.note("tool protocol: text, as " + a.textWhy)
	c.opt.Logf("llm: %s; using the text protocol (tools described in the prompt, one JSON action per answer) for the rest of the run; set OCR_LLM_TOOLS=text to skip this first request", a.textWhy)
}

// learnParam drops (or renames) a refused parameter for the rest of the
// run, saying so once; false when it cannot help: the key it would be
// renamed to was refused too.
func (c *Client) learnParam(ctx context.Context, p, to string, e *Error) bool {
	a := c.adapt
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.dropped[p] {
		return true
	}
	if to != "" && a.dropped[to] {
		return false
	}
	a.dropped[p] = true
	what := "without it"
	if to != "" {
		a.renamed[p] = to
		what = "with " + to + " instead"
	}
	msg := "the endpoint refused " + p + " (HTTP 400: " + Clip(e.Message, 120) + "); sending requests " + what + " for the rest of the run"
	a.note(msg)
	c.opt.Logf("llm: %s%s", who(ctx), msg)
	return true
}

// learnOutputCap caps the completion tokens of every later request at n,
// saying so once; false when requests are capped at n or less already (the
// refusal is not about what ocr asked for).
func (c *Client) learnOutputCap(ctx context.Context, n int, e *Error) bool {
	a := c.adapt
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.maxOut > 0 && a.maxOut <= n {
		return a.maxOut == n // learned by a request in flight: go again capped
	}
	a.maxOut = n
	msg := "the endpoint allows at most " + strconv.Itoa(n) + " completion tokens (HTTP 400: " + Clip(e.Message, 120) +
		"); asking for at most that for the rest of the run (OCR_LLM_EXTRA_BODY='{\"max_completion_tokens\": " +
		strconv.Itoa(n) + "}' skips the refused request)"
	a.note(msg)
	c.opt.Logf("llm: %s%s", who(ctx), msg)
	return true
}

func (c *Client) learnWindow(ctx context.Context, w int) {
	a := c.adapt
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.window != 0 && a.window <= w {
		return
	}
	a.window = w
	msg := "the endpoint's context window is " + strconv.Itoa(w) + " tokens (from its over-context error); set OCR_LLM_CONTEXT to skip the refused request"
	a.note(msg)
	c.opt.Logf("llm: %s%s", who(ctx), msg)
}

// refusedKeys lists the parameters ocr may send that some endpoint
// refuses, and what to send instead ("" drops it).
var refusedKeys = map[string]string{
	"temperature": "", "seed": "", "top_p": "", "max_completion_tokens": "max_tokens",
	"parallel_tool_calls": "", "reasoning_effort": "", "presence_penalty": "", "frequency_penalty": "",
	"tool_choice": "", "stream_options": "",
}

// refusedParam finds the request parameter a 400 refuses: the error's
// param field or a known key named in a message that says it is not
// supported. The second result is the key to send instead.
func refusedParam(text, param string) (string, string) {
	if !strings.Contains(text, "unsupported") && !strings.Contains(text, "not supported") &&
		!strings.Contains(text, "unrecognized") && !strings.Contains(text, "unknown") &&
		!strings.Contains(text, "not permitted") && !strings.Contains(text, "extra") && !strings.Contains(text, "invalid") {
		return "", ""
	}
	if to, ok := refusedKeys[param]; ok {
		return param, to
	}
	keys := make([]string, 0, len(refusedKeys))
	for k := range refusedKeys {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return len(keys[i]) > len(keys[j]) })
	for _, k := range keys {
		if i := strings.Index(text, k); i >= 0 && !strings.Contains(text[i+len(k):min(len(text), i+len(k)+12)], "instead") {
			return k, refusedKeys[k]
		}
	}
	return "", ""
}

// refusesTools recognises an endpoint's refusal of the tools parameter:
// Ollama's "<model> does not support tools", vLLM's "auto" tool choice
// without a tool parser, and the like.
func refusesTools(text string) bool {
	for _, s := range []string{"does not support tools", "tool choice requires --enable-auto-tool-choice",
		"does not support tool", "tools are not supported", "tool calling is not supported", "tool_choice' is not supported",
		"--tool-call-parser"} {
		if strings.Contains(text, s) {
			return true
		}
	}
	return false
}

func who(ctx context.Context) string {
	if sc := scope(ctx); sc != "" {
		return sc + ": "
	}
	return ""
}
