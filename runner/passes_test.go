package runner

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/ocr-ci/ocr/internal/testkit/llmtest"
	"github.com/ocr-ci/ocr/reporters"
	"github.com/ocr-ci/ocr/review"
)

// passModel answers each pass of the main review by its seed: every pass
// finds the nil dereference (in its own words), and one pass also invents
// a finding of its own. The filter keeps everything.
func passModel(t *testing.T) (*llmtest.Server, *[]int) {
	srv := llmtest.New(t)
	var seeds []int
	var mu sync.Mutex
	words := map[int]string{1: "v may be nil when k is missing, and dereferencing it panics",
		2: "dereferencing v panics when k is missing from the map: v may be nil",
		3: "when k is missing, v is nil and dereferencing it panics"}
	srv.Handle(func(r llmtest.Request) llmtest.Answer {
		if slices.Contains(r.ToolNames(), "drop_comments") {
			return llmtest.Text("nothing to drop")
		}
		seed := *r.Body.Seed
		mu.Lock()
		seeds = append(seeds, seed)
		mu.Unlock()
		cs := []map[string]string{{"content": words[seed], "existing_code": "return *v", "category": "bug", "severity": "high"}}
		if seed == 2 {
			cs = append(cs, map[string]string{"content": "the map lookup could be cached for speed",
				"existing_code": "v := m[k]", "category": "performance", "severity": "low"})
		}
		return llmtest.Calls(llmtest.Tool("code_comment", map[string]any{"comments": cs}), llmtest.Done())
	})
	return srv, &seeds
}

// TestPassesVote: --passes 3 reviews the group three times with seeds 1,
// 2 and 3 and temperature 0, keeps the finding all three found with votes
// 3/3 in the JSON report, leaves out the one a single pass invented, runs
// the filter once on what the vote kept, and logs each pass's cost.
func TestPassesVote(t *testing.T) {
	t.Parallel()
	env := testEnv{"OCR_PRICE_INPUT": "1", "OCR_PRICE_OUTPUT": "2"}
	r := bugRepo(t)
	srv, seeds := passModel(t)
	env.useLLM(srv)
	js := filepath.Join(t.TempDir(), "ocr.json")
	code, _, errs := env.run(t, "review", "--repo", r.dir, "--commit", "HEAD", "--passes", "3", "--report", "json="+js)
	if code != reporters.ExitOK {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	slices.Sort(*seeds)
	if !slices.Equal(*seeds, []int{1, 2, 3}) {
		t.Errorf("main requests sent seeds %v, want one pass each with 1, 2, 3", *seeds)
	}
	filters := 0
	for _, req := range srv.Requests() {
		if slices.Contains(req.ToolNames(), "drop_comments") {
			filters++
		}
		if temp, ok := req.Raw["temperature"].(float64); !ok || temp <= 0 || temp > 1e-30 {
			t.Errorf("request %d: temperature %v, want go-openai's explicit zero (1e-45)", req.Seq, req.Raw["temperature"])
		}
	}
	if filters != 1 {
		t.Errorf("%d filter requests, want one, after the vote", filters)
	}
	var got struct {
		Comments []struct {
			Content string
			Votes   string
		}
		Outvoted int
		Passes   []review.Pass
	}
	if err := json.Unmarshal([]byte(readFile(t, js)), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Comments) != 1 || got.Comments[0].Votes != "3/3" || strings.Contains(got.Comments[0].Content, "cached") {
		t.Fatalf("comments %+v, want the one finding every pass found, 3/3", got.Comments)
	}
	if got.Outvoted != 1 || len(got.Passes) != 3 || got.Passes[1].Cost == nil {
		t.Errorf("outvoted %d (want 1: the invented one; the copies of the kept one are not outvoted), passes %+v (want 3, priced)", got.Outvoted, got.Passes)
	}
	for _, want := range []string{"pass 1/3: 1 request(s)", "pass 3/3: 1 request(s)", ", cost ", "vote: 1 finding(s) kept, 1 left out (found by fewer passes than --min-votes)"} {
		if !strings.Contains(errs, want) {
			t.Errorf("the log does not say %q:\n%s", want, errs)
		}
	}
}

// TestOnePassSendsTheDefaultSeed: without --passes the review makes one
// pass, which sends the fixed seed and temperature 0 and records no votes.
func TestOnePassSendsTheDefaultSeed(t *testing.T) {
	t.Parallel()
	env := testEnv{}
	r := bugRepo(t)
	srv, seeds := passModel(t)
	env.useLLM(srv)
	code, out, errs := env.run(t, "review", "--repo", r.dir, "--commit", "HEAD", "--format", "json", "--no-filter")
	if code != reporters.ExitOK {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	if !slices.Equal(*seeds, []int{1}) || strings.Contains(out, `"votes"`) || strings.Contains(errs, "pass 1/") {
		t.Errorf("seeds %v, votes in the report: %v, pass lines: %v", *seeds, strings.Contains(out, `"votes"`), strings.Contains(errs, "pass 1/"))
	}
}
