package agent

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/ocr-ci/ocr/internal/testkit/llmtest"
	"github.com/ocr-ci/ocr/review"
	"github.com/ocr-ci/ocr/tools"
)

const (
	roundMark  = "### Findings already reported"
	filterMark = "You verify code review comments"
)

// comment is a code_comment call with one finding.
func comment(code, content string) llmtest.Call {
	return llmtest.Tool("code_comment", map[string]any{"comments": []map[string]string{{
		"content": content, "existing_code": code, "category": "BUG", "severity": "high"}}})
}

// roundScript answers the later rounds' main conversation of svc/calc.go.
func roundScript(answers ...llmtest.Answer) llmtest.Script {
	return llmtest.Script{Match: []string{mainMark, roundMark, `<file path="svc/calc.go">`}, Answers: answers}
}

// drops is a drop_comments answer dropping the given 1-based ids.
func drops(ids ...int) llmtest.Answer {
	list := []map[string]any{}
	for _, id := range ids {
		list = append(list, map[string]any{"id": id, "reason": "not in the diff"})
	}
	return llmtest.Calls(llmtest.Tool(FilterTool, map[string]any{"drop": list}))
}

// realFilter is the reflection filter against the same fake server,
// recording how many comments each call saw.
func realFilter(chat Chatter, seen *[]int) FilterFunc {
	var mu sync.Mutex
	return func(ctx context.Context, diff string, cs []review.Comment) ([]review.Comment, review.Usage, error) {
		mu.Lock()
		*seen = append(*seen, len(cs))
		mu.Unlock()
		return Filter(ctx, chat, "", diff, cs)
	}
}

func TestSecondRoundIsToldTheConfirmedFindings(t *testing.T) {
	f := calcFixture(t)
	srv := llmtest.New(t,
		roundScript(llmtest.Calls(comment("func Div(a, b int) int {", "Div has no doc on negative values."), llmtest.Done())),
		mainScript(llmtest.Calls(comment("return a / b", "Division by zero panics when b is 0."),
			comment("return a", "Returns the wrong value."), llmtest.Done())),
		llmtest.Script{Match: []string{filterMark}, Answers: []llmtest.Answer{drops(2), drops()}})
	var seen []int
	chat := client(t, srv, nil)
	out := New(Config{Rounds: 2, Filter: realFilter(chat, &seen)}, chat, tools.Default()).Review(context.Background(), f.input)
	wantReviewed(t, out)
	var second llmtest.Request
	for _, r := range srv.Requests() {
		if strings.Contains(r.FirstUser(), roundMark) {
			second = r
		}
	}
	if !strings.Contains(second.FirstUser(), "- svc/calc.go:5 (bug, high): Division by zero panics when b is 0.") {
		t.Errorf("the second round is not told the confirmed finding:\n%s", second.FirstUser())
	}
	if strings.Contains(second.FirstUser(), "Returns the wrong value.") {
		t.Error("the second round is told a finding the filter dropped")
	}
	if len(seen) != 2 || seen[0] != 2 || seen[1] != 1 {
		t.Errorf("filter calls saw %v comments, want [2 1]: each round filters only its own", seen)
	}
	if len(out.Comments) != 2 || out.FilterDropped != 1 {
		t.Fatalf("comments = %+v, filter dropped %d; want both rounds' kept comments and 1 dropped", out.Comments, out.FilterDropped)
	}
	g := out.Groups[0]
	if g.Rounds != 2 || g.FilterDropped != 1 || g.Comments != 2 || out.Usage.Requests != 4 {
		t.Errorf("group = %+v, usage = %+v; want 2 rounds, 2 main + 2 filter requests", g, out.Usage)
	}
}

func TestOneRoundByDefault(t *testing.T) {
	out, srv := reviewWith(t, nil, Config{}, mainScript(llmtest.Calls(comment("return a / b", "Division by zero."), llmtest.Done())))
	if srv.Count() != 1 || out.Groups[0].Rounds != 1 {
		t.Errorf("requests = %d, rounds = %d; want one round", srv.Count(), out.Groups[0].Rounds)
	}
}

func TestFailedSecondRoundKeepsTheGroupReviewed(t *testing.T) {
	out, _ := reviewWith(t, nil, Config{Rounds: 2},
		roundScript(llmtest.Answer{Status: 400}),
		mainScript(llmtest.Calls(comment("return a / b", "Division by zero."), llmtest.Done())))
	wantReviewed(t, out)
	if len(out.Comments) != 1 || out.Groups[0].Rounds != 1 || len(out.Errors) != 0 {
		t.Errorf("comments %d, group %+v, errors %v; want the first round's review", len(out.Comments), out.Groups[0], out.Errors)
	}
}

func TestNoSecondRoundAfterAFailedFirst(t *testing.T) {
	// The strict server fails the test on a request no script answers.
	out, srv := reviewWith(t, nil, Config{Rounds: 2}, mainScript(llmtest.Answer{Status: 401}))
	wantNotReviewed(t, out, review.ReasonProvider)
	if srv.Count() != 1 {
		t.Errorf("requests = %d, want 1", srv.Count())
	}
}

func TestBudgetAppliesToTheSecondRound(t *testing.T) {
	big := &openai.Usage{PromptTokens: 50_000, CompletionTokens: 10}
	out, srv := reviewWith(t, nil, Config{Rounds: 2, MaxTokensBudget: 40_000},
		mainScript(llmtest.Answer{Calls: []llmtest.Call{llmtest.Done()}, Usage: big}))
	wantReviewed(t, out)
	if srv.Count() != 1 || out.Groups[0].Rounds != 1 {
		t.Errorf("requests = %d, rounds = %d; want no second round once the budget is spent", srv.Count(), out.Groups[0].Rounds)
	}
}

func TestFilterRunsUnderTheGroupContext(t *testing.T) {
	var deadline bool
	check := func(ctx context.Context, _ string, cs []review.Comment) ([]review.Comment, review.Usage, error) {
		_, deadline = ctx.Deadline()
		return cs, review.Usage{}, nil
	}
	reviewWith(t, nil, Config{Filter: check, GroupTimeout: time.Hour},
		mainScript(llmtest.Calls(comment("return a / b", "Division by zero."), llmtest.Done())))
	if !deadline {
		t.Error("the filter ran without the group's timeout")
	}
}

// deadlineSource records whether whole-file reads carry a deadline.
type deadlineSource struct {
	tools.Source
	mu    sync.Mutex
	reads []bool
}

func (s *deadlineSource) ReadFile(ctx context.Context, path string) ([]byte, error) {
	_, ok := ctx.Deadline()
	s.mu.Lock()
	s.reads = append(s.reads, ok)
	s.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return s.Source.ReadFile(ctx, path)
}

func TestWholeFileAnchoringUsesTheGroupContext(t *testing.T) {
	f := calcFixture(t)
	src := &deadlineSource{Source: f.input.Source}
	f.input.Source = src
	// "package svc" is line 1, outside the hunk: only the whole file has it.
	out, _ := reviewWith(t, f, Config{GroupTimeout: time.Hour},
		mainScript(llmtest.Calls(comment("package svc", "Package name."), llmtest.Done())))
	if len(out.Comments) != 1 || out.Comments[0].StartLine != 1 {
		t.Fatalf("comments = %+v, want one on line 1", out.Comments)
	}
	if len(src.reads) != 1 || !src.reads[0] {
		t.Errorf("whole-file reads with a deadline = %v, want one under the group's timeout", src.reads)
	}
}

func TestCancelledWholeFileReadIsNotRemembered(t *testing.T) {
	f := calcFixture(t)
	src := &deadlineSource{Source: f.input.Source}
	f.input.Source = src
	r := New(Config{}, nil, tools.Default()).newRun(f.input)
	done, cancel := context.WithCancel(t.Context())
	cancel()
	if _, ok := r.newFile(done, "svc/calc.go"); ok {
		t.Fatal("a cancelled read returned lines")
	}
	lines, ok := r.newFile(t.Context(), "svc/calc.go")
	if !ok || len(lines) != 6 || lines[0] != "package svc" {
		t.Errorf("lines = %q, %v; want the file read again", lines, ok)
	}
}

func TestFirstLine(t *testing.T) {
	for in, want := range map[string]string{
		"\n  one\ntwo":          "one",
		"":                      "",
		strings.Repeat("é", 60): strings.Repeat("é", 50) + "…",
	} {
		if got := firstLine(in, 100); got != want {
			t.Errorf("firstLine(%q) = %q, want %q", in, got, want)
		}
	}
}
