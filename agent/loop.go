package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"

	openai "github.com/sashabaranov/go-openai"

	"github.com/ocr-ci/ocr/agent/budget"
	"github.com/ocr-ci/ocr/internal/infra/llm"
	"github.com/ocr-ci/ocr/review"
	"github.com/ocr-ci/ocr/tools"
)

// maxBadAnswers ends a loop after this many answers in a row without a
// usable tool call (no call, or only malformed or unknown calls).
const maxBadAnswers = 3

// errBudget and errTooLarge end a group before a request is sent.
var (
	errBudget   = budget.ErrTokens
	errCost     = budget.ErrCost
	errTooLarge = errors.New("the conversation does not fit the model's context even without old tool outputs")
)

// loopSpec describes one phase's loop.
type loopSpec struct {
	phase tools.Phase
	tools toolSet
	// rounds is the number of requests before the final round.
	rounds int
	// final is the message of the final round, offering finalTools.
	final      string
	finalTools toolSet
	// textEnds: an answer with text and no tool call ends the loop (plan).
	textEnds bool
	// nudge answers an answer without a tool call.
	nudge string
}

// loopResult is how a loop ended: done (task_done or a plan text), or a
// reason from the Reason* constants with a detail.
type loopResult struct {
	text   string
	done   bool
	failed bool
	reason review.Reason
	detail string
	err    error
}

// loop runs a tool loop: each answer's tool calls are executed in order and
// their results appended; it ends at task_done, after rounds requests plus
// the final round, or after maxBadAnswers unusable answers in a row.
func (t *task) loop(ctx context.Context, c *conv, s loopSpec) loopResult {
	bad := 0
	for round := 1; round <= s.rounds+1; round++ {
		offered := s.tools
		if round > s.rounds {
			c.user(s.final)
			offered = s.finalTools
		}
		msg, err := t.ask(ctx, c, offered)
		if err != nil {
			return t.failure(ctx, err)
		}
		if len(msg.ToolCalls) == 0 {
			if s.textEnds && strings.TrimSpace(msg.Content) != "" {
				return loopResult{done: true, text: msg.Content}
			}
			if msg.Content != "" {
				c.add(openai.ChatCompletionMessage{Role: openai.ChatMessageRoleAssistant, Content: msg.Content})
			}
			if bad++; bad >= maxBadAnswers {
				return malformed(bad)
			}
			c.user(s.nudge)
			continue
		}
		r := t.execute(ctx, c, s.phase, offered, msg)
		if r.done {
			return loopResult{done: true, failed: r.failed}
		}
		if r.usable > 0 {
			bad = 0
		} else if bad++; bad >= maxBadAnswers {
			return malformed(bad)
		}
	}
	return loopResult{reason: review.ReasonRoundCap, detail: fmt.Sprintf("no task_done after %d rounds and the final round", s.rounds)}
}

func malformed(n int) loopResult {
	return loopResult{reason: review.ReasonMalformed,
		detail: fmt.Sprintf("%d answers in a row had no usable tool call (none, unknown tools or malformed arguments); the model may not support tool calling: try OCR_LLM_TOOLS=text", n)}
}

// failure maps a request error to a reason.
func (t *task) failure(ctx context.Context, err error) loopResult {
	switch {
	case errors.Is(err, errBudget), errors.Is(err, errCost):
		return loopResult{reason: review.ReasonBudget, detail: err.Error(), err: err}
	case errors.Is(err, errTooLarge), errors.Is(err, errOverContext):
		return loopResult{reason: review.ReasonTooLarge, detail: err.Error(), err: err}
	case ctx.Err() != nil:
		reason, detail := ended(ctx, t.a.cfg.GroupTimeout.String())
		return loopResult{reason: reason, detail: detail, err: err}
	}
	return loopResult{reason: review.ReasonProvider, detail: err.Error(), err: err}
}

// executed is what one answer's tool calls amounted to.
type executed struct {
	usable       int
	done, failed bool
}

// execute runs an answer's tool calls in order and appends the answer and
// one tool message per call (OpenAI requires a result for every call).
// Reasoning content is sent back with its tool calls, as providers with
// thinking plus tool calls (DeepSeek, Kimi) require within one task.
func (t *task) execute(ctx context.Context, c *conv, phase tools.Phase, offered toolSet, msg openai.ChatCompletionMessage) executed {
	calls := withIDs(msg.ToolCalls, len(c.msgs))
	c.add(openai.ChatCompletionMessage{Role: openai.ChatMessageRoleAssistant, Content: msg.Content,
		ReasoningContent: msg.ReasoningContent, ToolCalls: calls})
	var ex executed
	for _, call := range calls {
		name, args := strings.TrimSpace(call.Function.Name), call.Function.Arguments
		res := tools.Result{Text: tools.NotFoundText, IsError: true}
		if offers(offered.tools, name) {
			if json.Valid([]byte(args)) && !t.sess.Skipped(name) {
				ex.usable++
			}
			res = t.a.reg.Call(ctx, phase, t.sess, name, args)
		}
		if len(res.Comments) > 0 {
			res.Text = tools.PlacedText(t.anchor(ctx, res.Comments, msg.ReasoningContent))
		}
		if res.Text == "" {
			res.Text = "(no output)"
		}
		c.add(openai.ChatCompletionMessage{Role: openai.ChatMessageRoleTool, Content: res.Text, ToolCallID: call.ID})
		ex.done = ex.done || res.Done
		ex.failed = ex.failed || res.Failed
	}
	return ex
}

// withIDs gives calls without an id (some local servers omit it) a unique
// one, since every tool result must name its call.
func withIDs(calls []openai.ToolCall, turn int) []openai.ToolCall {
	out := make([]openai.ToolCall, len(calls))
	for i, c := range calls {
		if c.ID == "" {
			c.ID = fmt.Sprintf("call_%d_%d", turn, i)
		}
		c.Type, c.Index = openai.ToolTypeFunction, nil
		out[i] = c
	}
	return out
}

func offers(ts []openai.Tool, name string) bool {
	for _, t := range ts {
		if t.Function != nil && t.Function.Name == name {
			return true
		}
	}
	return false
}

// ask sends the conversation: it keeps the prompt under the context limit,
// books the run's budget with the prompt's estimated size, and accounts
// the usage. An answer without choices is an empty answer.
func (t *task) ask(ctx context.Context, c *conv, offered toolSet) (openai.ChatCompletionMessage, error) {
	var resp openai.ChatCompletionResponse
	err := t.askWithin(c, offered, func() (bool, error) {
		var err error
		resp, err = t.send(ctx, openai.ChatCompletionRequest{Messages: c.msgs, Tools: offered.tools}, c.total+offered.tokens)
		return err == nil, err
	})
	if err != nil || len(resp.Choices) == 0 {
		return openai.ChatCompletionMessage{}, err
	}
	return resp.Choices[0].Message, nil
}

// send is the one place requests leave: budget, model, usage.
func (t *task) send(ctx context.Context, req openai.ChatCompletionRequest, estimate int) (openai.ChatCompletionResponse, error) {
	if err := ctx.Err(); err != nil {
		return openai.ChatCompletionResponse{}, err
	}
	if err := t.run.budget.Reserve(estimate); err != nil {
		return openai.ChatCompletionResponse{}, err
	}
	req.Model = t.a.cfg.Model
	if t.pass > 0 {
		seed := t.a.cfg.Seed + t.pass
		req.Seed = &seed
	}
	req.MaxCompletionTokens = t.run.window.Completion(t.a.cfg.MaxCompletionTokens)
	done := t.run.meter.request()
	var sent atomic.Int64
	resp, err := t.a.chat.Chat(llm.CountSent(llm.WithScope(ctx, t.label()), &sent), req)
	u := budget.UsageOf(resp.Usage, sent.Load())
	done(u)
	t.run.budget.Settle(estimate, u)
	t.addUsage(u)
	t.stopIfDefinitive(err)
	return resp, err
}

// stopIfDefinitive stops the run when err would fail every other request
// alike, and remembers that this group's failure was the cause.
func (t *task) stopIfDefinitive(err error) {
	if err != nil && stopsRun(err) && t.run.halter.halt(err) {
		t.mu.Lock()
		t.halted = true
		t.mu.Unlock()
	}
}

// stoppedRun reports whether this group's failure stopped the run.
func (t *task) stoppedRun() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.halted
}
