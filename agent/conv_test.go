package agent

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/review"

	openai "github.com/sashabaranov/go-openai"
	"github.com/tiktoken-go/tokenizer"
)

func TestConvFitShortensOldToolOutputsOnly(t *testing.T) {
	c := &conv{}
	c.add(openai.ChatCompletionMessage{Role: "system", Content: "sys"})
	c.user(strings.Repeat("diff ", 400))
	for i := 0; i < 3; i++ {
		c.add(openai.ChatCompletionMessage{Role: "assistant", ToolCalls: []openai.ToolCall{{ID: "c", Function: openai.FunctionCall{Name: "file_read", Arguments: "{}"}}}})
		c.add(openai.ChatCompletionMessage{Role: "tool", ToolCallID: "c", Content: strings.Repeat("line ", 400)})
	}
	before := c.total
	if !c.fit(before - 100) {
		t.Fatal("fit failed although old outputs can be shortened")
	}
	if c.msgs[3].Content != shortened || c.msgs[5].Content == shortened || c.msgs[7].Content == shortened {
		t.Errorf("fit should shorten the oldest tool output first")
	}
	if !strings.HasPrefix(c.msgs[1].Content, "diff") {
		t.Error("fit touched the diff")
	}
	if c.fit(600) {
		t.Error("fit reported success below the size of the diff")
	}
	sum := 0
	for _, n := range c.size {
		sum += n
	}
	if sum != c.total {
		t.Errorf("total %d != sum of sizes %d", c.total, sum)
	}
}

// TestTooLargeForContext: a group that cannot fit is not sent, and the
// reason gives the figures and the setting, whether the prompt is too long
// for the room left or the tools alone fill the window.
func TestTooLargeForContext(t *testing.T) {
	for window, want := range map[int]string{
		900:  `the tools and the room kept for the answer alone fill a context window of 900 tokens \(OCR_LLM_CONTEXT`,
		1500: `about \d+ tokens, over the [1-9]\d* that a context window of 1500 tokens leaves after the tools and the answer \(OCR_LLM_CONTEXT`,
	} {
		out, srv := reviewWith(t, nil, Config{ContextTokens: window, MaxCompletionTokens: -1})
		wantNotReviewed(t, out, review.ReasonTooLarge)
		if srv.Count() != 0 {
			t.Errorf("window %d: requests = %d", window, srv.Count())
		}
		for _, f := range out.Files {
			if !regexp.MustCompile(want).MatchString(f.Detail) {
				t.Errorf("window %d: %s: detail %q, want %s", window, f.Path, f.Detail, want)
			}
		}
	}
}

func TestFenced(t *testing.T) {
	for in, want := range map[string]string{
		"```go\nreturn a / b\n```":          "return a / b",
		"Here:\n```\nx := 1\ny := 2\n```\n": "x := 1\ny := 2",
		"NONE":                              "",
		"```\n\n```":                        "",
	} {
		got, ok := fenced(in)
		if got != want || ok != (want != "") {
			t.Errorf("fenced(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
}

func TestCompactDiff(t *testing.T) {
	in := "diff --git a/x b/x\nindex 1..2 100644\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n--- a/y\n+++ b/y\n"
	if got, want := compactDiff(in), "@@ -1 +1 @@\n--- a/y\n+++ b/y\n"; got != want {
		t.Errorf("compactDiff = %q, want %q (hunk lines kept)", got, want)
	}
}

func TestCleanPath(t *testing.T) {
	for in, want := range map[string]string{
		"./svc/calc.go": "svc/calc.go", `svc\calc.go`: "svc/calc.go", "/svc/calc.go": "svc/calc.go",
		"../../etc/passwd": "etc/passwd", "": "", " . ": "", //nolint:gocritic // mapKey: the spaces in " . " are the input under test
	} {
		if got := cleanPath(in); got != want {
			t.Errorf("cleanPath(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestFixedPartsAreEstimatedSafely: the system prompt and the tool schemas
// are estimated without a tokenizer in the binary (bytes/3); the estimate
// must never fall short of cl100k's count, which a pre-flight context limit
// relies on, nor overshoot it wildly. tiktoken-go is a test-only dependency.
func TestFixedPartsAreEstimatedSafely(t *testing.T) {
	enc, err := tokenizer.Get(tokenizer.Cl100kBase)
	if err != nil {
		t.Fatal(err)
	}
	count := func(s string) int { n, _ := enc.Count(s); return n }
	r, _ := promptRun(t)
	schema, _ := json.Marshal(r.mainTools.tools)
	for _, c := range []struct {
		what       string
		est, exact int
	}{{"system prompt", r.system.tokens, count(r.system.text)}, {"main tools", r.mainTools.tokens, count(string(schema))}} {
		if ratio := float64(c.est) / float64(c.exact); ratio < 1 || ratio > 1.6 {
			t.Errorf("%s: estimate %d tokens, cl100k %d (ratio %.2f): want between 1 and 1.6", c.what, c.est, c.exact, ratio)
		}
	}
	t.Logf("system+main tools: estimate %d, cl100k %d", r.system.tokens+r.mainTools.tokens, count(r.system.text)+count(string(schema)))
	c := &conv{}
	c.system(r.system)
	if c.total != r.system.tokens+4 || len(c.msgs) != 1 || c.msgs[0].Role != openai.ChatMessageRoleSystem {
		t.Errorf("conv after system: total %d, msgs %+v", c.total, c.msgs)
	}
}
