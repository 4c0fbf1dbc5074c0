package runner

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	openai "github.com/sashabaranov/go-openai"

	"github.com/ocr-ci/ocr/internal/testkit/llmtest"
	"github.com/ocr-ci/ocr/reporters"
	"github.com/ocr-ci/ocr/review"
)

// pricedUsage is what the scripted provider reports for every answer:
// at input 2, cached input 0.5 and output 10 per million tokens it costs
// (600,000×2 + 400,000×0.5 + 10,000×10) / 1e6 = 1.5.
func pricedUsage() *openai.Usage {
	return &openai.Usage{PromptTokens: 1_000_000, CompletionTokens: 10_000,
		PromptTokensDetails: &openai.PromptTokensDetails{CachedTokens: 400_000}}
}

// pricedEnv sets the prices of the scripted model.
func pricedEnv(srv *llmtest.Server) testEnv {
	env := testEnv{"OCR_PRICE_INPUT": "2", "OCR_PRICE_OUTPUT": "10", "OCR_PRICE_CACHED_INPUT": "0.5"}
	env.useLLM(srv)
	return env
}

// costReport is the JSON report's part the cost tests check.
type costReport struct {
	Status review.Status         `json:"status"`
	Usage  review.Usage          `json:"usage"`
	Cost   *review.Cost          `json:"cost"`
	Files  []review.FileCoverage `json:"files"`
}

func readCostReport(t *testing.T, path string) costReport {
	t.Helper()
	var got costReport
	data, err := os.ReadFile(path)
	if err != nil || json.Unmarshal(data, &got) != nil {
		t.Fatalf("JSON report %s: %v\n%s", path, err, data)
	}
	return got
}

func TestReviewCostInReports(t *testing.T) {
	t.Parallel()
	r := bugRepo(t)
	srv := llmtest.New(t, llmtest.Script{Match: []string{"store/store.go"}, Answers: []llmtest.Answer{
		{Calls: []llmtest.Call{llmtest.Done()}, Usage: pricedUsage()},
	}})
	dir := t.TempDir()
	jsonPath := filepath.Join(dir, "r.json")
	code, out, errs := pricedEnv(srv).run(t, "review", "--repo", r.dir, "--commit", "HEAD", "--no-filter",
		"--report", "json="+jsonPath, "--report", "text")
	if code != reporters.ExitOK {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	got := readCostReport(t, jsonPath)
	if got.Usage.CachedTokens != 400_000 || got.Cost == nil || got.Cost.Total < 1.5-1e-9 || got.Cost.Total > 1.5+1e-9 {
		t.Errorf("usage %+v cost %+v: want 400000 cached tokens and a cost of 1.5", got.Usage, got.Cost)
	}
	if got.Cost != nil && got.Cost.Prices != (review.Prices{Input: 2, Output: 10, CachedInput: 0.5}) {
		t.Errorf("prices %+v", got.Cost.Prices)
	}
	if !strings.Contains(out, "1,000,000 prompt + 10,000 completion tokens (400,000 of the prompt tokens cached), 1.50 (at 2 input + 10 output per million tokens)") {
		t.Errorf("the text report lacks the cost:\n%s", out)
	}
	if !strings.Contains(errs, "1,000,000 prompt + 10,000 completion tokens (400,000 of the prompt tokens cached), cost 1.50") {
		t.Errorf("the log lacks the cost:\n%s", errs)
	}
}

func TestReviewWithoutPricesShowsNoCost(t *testing.T) {
	t.Parallel()
	r := bugRepo(t)
	srv := llmtest.New(t, llmtest.Script{Match: []string{"store/store.go"}, Answers: []llmtest.Answer{
		{Calls: []llmtest.Call{llmtest.Done()}, Usage: pricedUsage()},
	}})
	env := testEnv{}
	env.useLLM(srv)
	code, out, errs := env.run(t, "review", "--repo", r.dir, "--commit", "HEAD", "--no-filter", "--format", "json")
	if code != reporters.ExitOK {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	if strings.Contains(out, `"cost"`) || strings.Contains(errs, "cost") {
		t.Errorf("no prices were given, yet a cost is shown:\n%s\n%s", out, errs)
	}
}

func TestMaxCostStopsTheRun(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	for _, d := range []string{"a", "b", "c"} {
		r.write(d+"/x.go", "package "+d+"\n\nfunc F() int { return 1 }\n")
	}
	r.commit("three directories")
	srv := llmtest.New(t)
	srv.Handle(func(llmtest.Request) llmtest.Answer {
		return llmtest.Answer{Calls: []llmtest.Call{llmtest.Done()}, Usage: pricedUsage()}
	})
	dir := t.TempDir()
	jsonPath := filepath.Join(dir, "r.json")
	// One directory is one group; one at a time. The first group's request
	// costs 1.5, past --max-cost 1: the other groups are not sent.
	code, _, errs := pricedEnv(srv).run(t, "scan", "--repo", r.dir, "--no-filter", "--concurrency", "1",
		"--max-cost", "1", "--report", "json="+jsonPath)
	if code != reporters.ExitIncomplete {
		t.Fatalf("exit %d, want 3 (partial) as for the token budget\n%s", code, errs)
	}
	got := readCostReport(t, jsonPath)
	budget := 0
	for _, f := range got.Files {
		if f.Reason == review.ReasonBudget && strings.Contains(f.Detail, "--max-cost") {
			budget++
		}
	}
	if got.Status != review.StatusPartial || budget != 2 || srv.Count() != 1 {
		t.Errorf("status %s, %d file(s) left out by --max-cost, %d request(s): want partial, 2, 1", got.Status, budget, srv.Count())
	}
	if got.Cost == nil || got.Cost.Total < 1.5-1e-9 || got.Cost.Total > 1.5+1e-9 {
		t.Errorf("cost %+v, want 1.5", got.Cost)
	}
}

func TestMaxCostNeedsPrices(t *testing.T) {
	t.Parallel()
	r := bugRepo(t)
	srv := llmtest.New(t)
	env := testEnv{}
	env.useLLM(srv)
	code, _, errs := env.run(t, "review", "--repo", r.dir, "--commit", "HEAD", "--max-cost", "5")
	if code != reporters.ExitUsage || !strings.Contains(errs, "OCR_PRICE_INPUT and OCR_PRICE_OUTPUT") {
		t.Errorf("--max-cost without prices: exit %d, stderr %q", code, errs)
	}
	env["OCR_PRICE_INPUT"] = "-1"
	code, _, errs = env.run(t, "review", "--repo", r.dir, "--commit", "HEAD")
	if code != reporters.ExitUsage || !strings.Contains(errs, "OCR_PRICE_INPUT -1") {
		t.Errorf("a negative price: exit %d, stderr %q", code, errs)
	}
	if srv.Count() != 0 {
		t.Errorf("%d requests", srv.Count())
	}
}

// TestScanBudgetAndDeadline: a scan honours the run-wide token budget and
// the deadline as a review does: groups not reached are reported with the
// reason, the reports are written, the run is incomplete.
func TestScanBudgetAndDeadline(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	for _, d := range []string{"a", "b", "c"} {
		r.write(d+"/x.go", "package "+d+"\n\nfunc F() int { return 1 }\n")
	}
	r.commit("three directories")
	cases := []struct {
		name   string
		args   []string
		hang   bool
		reason review.Reason
	}{
		{"token budget", []string{"--max-tokens-budget", "1000000"}, false, review.ReasonBudget},
		{"deadline", []string{"--timeout", "3s"}, true, review.ReasonTimeout},
	}
	for _, c := range cases {
		srv := llmtest.New(t)
		srv.Handle(func(r llmtest.Request) llmtest.Answer {
			// With the deadline, the first group is answered and the
			// second hangs until the deadline ends the run.
			return llmtest.Answer{Calls: []llmtest.Call{llmtest.Done()}, Usage: pricedUsage(), Hang: c.hang && r.Seq > 1}
		})
		env := testEnv{}
		env.useLLM(srv)
		jsonPath := filepath.Join(t.TempDir(), "r.json")
		args := append([]string{"scan", "--repo", r.dir, "--no-filter", "--concurrency", "1", "--report", "json=" + jsonPath}, c.args...)
		code, _, errs := env.run(t, args...)
		if code != reporters.ExitIncomplete {
			t.Errorf("%s: exit %d, want 3\n%s", c.name, code, errs)
		}
		got := readCostReport(t, jsonPath)
		left := 0
		for _, f := range got.Files {
			if !f.Reviewed && f.Reason == c.reason {
				left++
			}
		}
		if got.Status != review.StatusPartial || left != 2 {
			t.Errorf("%s: status %s, %d file(s) not reviewed (%s): want partial, 2\n%+v", c.name, got.Status, left, c.reason, got.Files)
		}
	}
}
