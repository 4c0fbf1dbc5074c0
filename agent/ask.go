package agent

import (
	"context"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/ocr-ci/ocr/agent/budget"
	"github.com/ocr-ci/ocr/agent/window"
	"github.com/ocr-ci/ocr/review"
	"github.com/ocr-ci/ocr/tools"
)

// Defaults of AskInput's caps: one answer is small next to a review.
const (
	DefaultAskRequests = 8
	DefaultAskTokens   = 100_000
)

// AskTools are the tools an answer may use: the four that only read.
var AskTools = []string{"file_read", "file_read_diff", "file_find", "code_search"}

// askFinal is the last round's instruction, sent with no tool offered.
const askFinal = "Stop reading. Write your answer now, in plain text, without calling a tool."

// AskInput is one question that the model answers in plain text, reading
// the repository through the read-only tools first if it wants.
type AskInput struct {
	// System and Prompt are the system and first user messages; the caller
	// delimits untrusted text in Prompt.
	System, Prompt string
	// Source and Diffs are where the tools read (see tools.Session).
	Source tools.Source
	Diffs  map[string]string
	// Label names the answer in the LLM client's logs.
	Label string
	// MaxRequests caps the model requests (default 8); the last one offers
	// no tool, so the answer comes in time.
	MaxRequests int
	// MaxTokens caps prompt + completion tokens (default 100,000): a
	// request that would pass it is not sent.
	MaxTokens int
}

// AskOutput is the answer: its text, or why there is none.
type AskOutput struct {
	Text  string
	Usage review.Usage
	// Reason is "" when Text is the answer; otherwise why it could not be
	// produced (provider, budget, timeout, malformed, round_cap...) with
	// a one-line Detail.
	Reason review.Reason
	Detail string
}

// Ask runs one tool loop whose answer is text, not code_comment and
// task_done: the model may call AskTools (those the registry has) for up to
// MaxRequests-1 requests, then is asked for its answer without tools. It
// shares the review's loop, budget accounting and tool dispatch.
func (a *Agent) Ask(ctx context.Context, in AskInput) AskOutput {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	in.MaxRequests = orDefault(in.MaxRequests, DefaultAskRequests)
	r := &run{a: a, budget: budget.New(orDefault(in.MaxTokens, DefaultAskTokens), 0, review.Prices{}), out: a.cfg.Progress,
		meter: &meter{start: time.Now(), groups: 1}, halter: &halter{cancel: cancel}, window: window.New(a.cfg.ContextTokens)}
	t := &task{a: a, run: r, files: []File{{Path: strings.TrimSpace(in.Label) + " (answer)"}},
		sess: &tools.Session{Source: in.Source, Diffs: in.Diffs}}
	count := tokenCounter()
	c := &conv{}
	c.system(newCounted(in.System, count))
	c.user(in.Prompt)
	res := t.loop(ctx, c, loopSpec{phase: tools.PhaseMain, tools: newToolSet(a.askTools(), count),
		rounds: in.MaxRequests - 1, final: askFinal, textEnds: true, nudge: askFinal})
	out := AskOutput{Usage: t.usage}
	switch {
	case res.done && strings.TrimSpace(res.text) != "":
		out.Text = strings.TrimSpace(res.text)
	case res.reason != "":
		out.Reason, out.Detail = res.reason, res.detail
	default:
		out.Reason, out.Detail = review.ReasonMalformed, "the model gave no answer"
	}
	return out
}

// askTools are the registry's main-phase entries among AskTools.
func (a *Agent) askTools() []openai.Tool {
	var es []tools.Entry
	for _, e := range a.reg.Entries(tools.PhaseMain) {
		for _, n := range AskTools {
			if e.Name == n {
				es = append(es, e)
			}
		}
	}
	return toOpenAI(es)
}

func orDefault(v, d int) int {
	if v <= 0 {
		return d
	}
	return v
}
