package agent

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/ocr-ci/ocr/internal/testkit/llmtest"
	"github.com/ocr-ci/ocr/review"
	"github.com/ocr-ci/ocr/tools"
)

func TestProviderRetries(t *testing.T) {
	f := calcFixture(t)
	srv := llmtest.New(t, mainScript(
		llmtest.Answer{Status: 429, RetryAfter: "3"},
		llmtest.Answer{Status: 500},
		llmtest.Calls(llmtest.Done())))
	log := &sleepLog{}
	out := New(Config{}, client(t, srv, log), tools.Default()).Review(context.Background(), f.input)
	wantReviewed(t, out)
	if len(log.d) != 2 || log.d[0] != 3*time.Second {
		t.Errorf("sleeps = %v, want Retry-After 3s honoured, then a backoff", log.d)
	}
	if out.Usage.Requests != 3 {
		t.Errorf("usage requests = %d, want 3 (every request sent counts: 429, 500, then the answer)", out.Usage.Requests)
	}
}

func TestProviderErrorIsReported(t *testing.T) {
	out, _ := reviewWith(t, nil, Config{}, mainScript(llmtest.Answer{Status: 401}))
	wantNotReviewed(t, out, review.ReasonProvider)
	if !strings.Contains(out.Files[0].Detail, "401") {
		t.Errorf("detail = %q, want the HTTP status", out.Files[0].Detail)
	}
}

func TestGroupTimeout(t *testing.T) {
	out, _ := reviewWith(t, nil, Config{GroupTimeout: 100 * time.Millisecond}, mainScript(llmtest.Answer{Hang: true}))
	wantNotReviewed(t, out, review.ReasonTimeout)
}

// twoGroups is a change of two files in different directories, each its own group.
func twoGroups(t *testing.T) *fixture {
	base, head := copyMap(calcBase), copyMap(calcHead)
	base["web/page.go"] = "package web\n\nvar title = \"a\"\n"
	head["web/page.go"] = "package web\n\nvar title = \"b\"\n"
	return newFixture(t, base, head)
}

func TestBudgetStopsRemainingGroups(t *testing.T) {
	big := &openai.Usage{PromptTokens: 50_000, CompletionTokens: 10}
	out, srv := reviewWith(t, twoGroups(t), Config{Concurrency: 1, GroupFiles: 1, MaxTokensBudget: 40_000},
		llmtest.Script{Match: []string{mainMark, `<file path="svc/calc.go">`}, Answers: []llmtest.Answer{{Calls: []llmtest.Call{llmtest.Done()}, Usage: big}}})
	if out.Status != review.StatusPartial {
		t.Fatalf("status = %s, want partial", out.Status)
	}
	byPath := map[string]review.FileCoverage{}
	for _, c := range out.Files {
		byPath[c.Path] = c
	}
	if !byPath["svc/calc.go"].Reviewed || byPath["web/page.go"].Reason != review.ReasonBudget {
		t.Errorf("coverage = %+v, want calc reviewed and page not reviewed for budget", out.Files)
	}
	if srv.Count() != 1 {
		t.Errorf("requests = %d, want none after the budget is spent", srv.Count())
	}
}

func TestBudgetTooSmallForAnyRequest(t *testing.T) {
	out, srv := reviewWith(t, nil, Config{MaxTokensBudget: 100})
	wantNotReviewed(t, out, review.ReasonBudget)
	if srv.Count() != 0 {
		t.Errorf("requests = %d, want 0", srv.Count())
	}
}

func TestRelocation(t *testing.T) {
	out, srv := reviewWith(t, nil, Config{},
		mainScript(llmtest.Calls(divComment("quotient := divide(a, b)"), llmtest.Done())),
		llmtest.Script{Match: []string{relocMark, "svc/calc.go", "quotient := divide(a, b)"},
			Answers: []llmtest.Answer{llmtest.Text("```go\nreturn a / b\n```")}})
	wantReviewed(t, out)
	if len(out.Comments) != 1 || out.Comments[0].StartLine != 5 || out.Comments[0].Method != review.MethodRelocation {
		t.Fatalf("comments = %+v, want one relocated to line 5", out.Comments)
	}
	var reloc []llmtest.Request
	for _, r := range srv.Requests() {
		if strings.Contains(r.Body.Messages[0].Content, relocMark) {
			reloc = append(reloc, r)
		}
	}
	if len(reloc) != 1 || len(reloc[0].Body.Tools) != 0 {
		t.Errorf("relocation requests = %d, want one without tools", len(reloc))
	}
	if out.Usage.Requests != 2 {
		t.Errorf("usage requests = %d, want the relocation counted", out.Usage.Requests)
	}
}

func TestUnplacedCommentIsKeptFileLevel(t *testing.T) {
	out, _ := reviewWith(t, nil, Config{},
		mainScript(llmtest.Calls(divComment("nothing like this"), llmtest.Done())),
		llmtest.Script{Match: []string{relocMark}, Answers: []llmtest.Answer{llmtest.Text("NONE")}})
	if len(out.Comments) != 1 || !out.Comments[0].FileLevel() || out.Comments[0].Path != "svc/calc.go" {
		t.Fatalf("comments = %+v, want one file-level comment", out.Comments)
	}
}

func largeFixture(t *testing.T, lines int) *fixture {
	var b strings.Builder
	b.WriteString("package svc\n\nfunc Big() int {\n\tn := 0\n")
	for i := 0; i < lines; i++ {
		fmt.Fprintf(&b, "\tn += %d\n", i)
	}
	b.WriteString("\treturn n\n}\n")
	head := copyMap(calcHead)
	head["svc/big.go"] = b.String()
	return newFixture(t, copyMap(calcBase), head)
}

func TestPlanPhaseForLargeGroups(t *testing.T) {
	plan := "Summary: adds Big.\nRisks: 1. [low] svc/big.go: overflow"
	out, srv := reviewWith(t, largeFixture(t, 60), Config{},
		llmtest.Script{Match: []string{planMark}, Answers: []llmtest.Answer{
			llmtest.Calls(llmtest.Tool("code_search", map[string]any{"search_text": "Big"})),
			llmtest.Text(plan)}},
		llmtest.Script{Match: []string{mainMark, `<file path="svc/big.go">`}, Answers: []llmtest.Answer{llmtest.Calls(llmtest.Done())}})
	if out.Status != review.StatusComplete {
		t.Fatalf("status = %s (%v)", out.Status, out.Errors)
	}
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("requests = %d, want 2 plan + 1 main", len(reqs))
	}
	for _, r := range reqs[:2] {
		if got := r.ToolNames(); !slices.Equal(got, []string{"file_read_diff", "file_find", "code_search"}) {
			t.Errorf("plan tools = %v, want only the read-only ones", got)
		}
	}
	if !strings.Contains(reqs[2].FirstUser(), "### Review plan\n"+plan) {
		t.Errorf("main prompt lacks the plan:\n%s", reqs[2].FirstUser())
	}
}

func TestNoPlanForSmallGroups(t *testing.T) {
	_, srv := reviewWith(t, largeFixture(t, 20), Config{}, mainScript(llmtest.Calls(llmtest.Done())))
	if srv.Count() != 1 {
		t.Errorf("requests = %d, want only the main request", srv.Count())
	}
}

func TestFilterHook(t *testing.T) {
	two := llmtest.Calls(divComment("return a / b"), divComment("func Div(a, b int) int {"), llmtest.Done())
	var gotDiff string
	keepFirst := func(_ context.Context, diff string, cs []review.Comment) ([]review.Comment, review.Usage, error) {
		gotDiff = diff
		return cs[:1], review.Usage{Requests: 1, PromptTokens: 7}, nil
	}
	out, _ := reviewWith(t, nil, Config{Filter: keepFirst}, mainScript(two))
	if len(out.Comments) != 1 || out.Comments[0].StartLine != 5 || out.Usage.Requests != 2 {
		t.Errorf("comments = %+v, usage = %+v; want the filter applied and counted", out.Comments, out.Usage)
	}
	if !strings.Contains(gotDiff, `<file path="svc/calc.go">`) {
		t.Errorf("filter diff = %q", gotDiff)
	}
	failing := func(context.Context, string, []review.Comment) ([]review.Comment, review.Usage, error) {
		return nil, review.Usage{}, errors.New("boom")
	}
	out, _ = reviewWith(t, nil, Config{Filter: failing}, mainScript(two))
	if len(out.Comments) != 2 {
		t.Errorf("comments = %d, want all kept when the filter fails", len(out.Comments))
	}
}

func TestTaskFailed(t *testing.T) {
	out, _ := reviewWith(t, nil, Config{}, mainScript(llmtest.Calls(llmtest.Tool("task_done", map[string]string{"state": "FAILED"}))))
	wantNotReviewed(t, out, review.ReasonFailed)
}

func TestGroupsRunConcurrentlyAndCoverEveryFile(t *testing.T) {
	f := twoGroups(t)
	out, srv := reviewWith(t, f, Config{GroupFiles: 1},
		mainScript(llmtest.Calls(llmtest.Done())),
		llmtest.Script{Match: []string{mainMark, `<file path="web/page.go">`}, Answers: []llmtest.Answer{llmtest.Calls(llmtest.Done())}})
	if out.Status != review.StatusComplete || len(out.Files) != 2 || srv.Count() != 2 {
		t.Fatalf("status %s, files %+v, requests %d", out.Status, out.Files, srv.Count())
	}
	if len(out.Groups) != 2 || out.Groups[0].Files[0] != "svc/calc.go" || out.Groups[1].Usage.Requests != 1 {
		t.Errorf("groups = %+v", out.Groups)
	}
	if !strings.Contains(srv.Requests()[0].FirstUser(), "<other_changed_files>") {
		t.Error("a group's prompt does not list the other changed files")
	}
}

func TestPlanProviderErrorEndsTheGroup(t *testing.T) {
	out, srv := reviewWith(t, largeFixture(t, 60), Config{},
		llmtest.Script{Match: []string{planMark}, Answers: []llmtest.Answer{{Status: 400}}})
	if out.Status != review.StatusFailed || out.Files[0].Reason != review.ReasonProvider {
		t.Errorf("status %s, files %+v; want provider_error", out.Status, out.Files)
	}
	if srv.Count() != 1 {
		t.Errorf("requests = %d, want no main request after the plan failed", srv.Count())
	}
}

func TestPlanWithoutTextFallsBackToMain(t *testing.T) {
	unknown := llmtest.Calls(llmtest.Tool("code_comment", map[string]any{"comments": []any{}}))
	out, srv := reviewWith(t, largeFixture(t, 60), Config{},
		llmtest.Script{Match: []string{planMark}, Answers: []llmtest.Answer{unknown}, Repeat: true},
		llmtest.Script{Match: []string{mainMark, `<file path="svc/big.go">`}, Answers: []llmtest.Answer{llmtest.Calls(llmtest.Done())}})
	if out.Status != review.StatusComplete {
		t.Fatalf("status %s: %v", out.Status, out.Errors)
	}
	if n := srv.Count(); n != maxBadAnswers+1 {
		t.Errorf("requests = %d, want %d plan answers cut off, then the main request", n, maxBadAnswers+1)
	}
	reqs := srv.Requests()
	if strings.Contains(reqs[len(reqs)-1].FirstUser(), "### Review plan") {
		t.Error("main prompt has a plan although none was produced")
	}
}
