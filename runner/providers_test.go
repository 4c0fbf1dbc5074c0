package runner

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	openai "github.com/sashabaranov/go-openai"

	"github.com/ocr-ci/ocr/internal/testkit/llmtest"
	"github.com/ocr-ci/ocr/reporters"
	"github.com/ocr-ci/ocr/review"
)

// providerCase is one row of docs/providers.md: the variables a user sets
// and the quirks of the server, and what the review must show of them.
type providerCase struct {
	env    func(srv *llmtest.Server) testEnv
	quirks []llmtest.Quirks // one review per variant
	// expect sets the path and authentication the server checks.
	expect func(srv *llmtest.Server)
	// reasoning: the model thinks (reasoning_content or <think>).
	reasoning bool
	// check looks at the requests, the log and the JSON report.
	check func(t *testing.T, reqs []llmtest.Request, log string, rep providerReport)
}

type providerReport struct {
	Status   review.Status `json:"status"`
	Comments []struct {
		Path      string `json:"path"`
		StartLine int    `json:"start_line"`
		Content   string `json:"content"`
	} `json:"comments"`
	Usage review.Usage `json:"usage"`
}

func baseEnv(srv *llmtest.Server) testEnv {
	e := testEnv{}
	e.useLLM(srv)
	return e
}

func with(e testEnv, kv ...string) testEnv {
	for i := 0; i+1 < len(kv); i += 2 {
		e[kv[i]] = kv[i+1]
	}
	return e
}

// logSays checks that the run's log says something.
func logSays(subs ...string) func(*testing.T, []llmtest.Request, string, providerReport) {
	return func(t *testing.T, _ []llmtest.Request, log string, _ providerReport) {
		for _, s := range subs {
			if !strings.Contains(log, s) {
				t.Errorf("the log does not say %q:\n%s", s, log)
			}
		}
	}
}

var providerCases = map[string]providerCase{
	"OpenAI": {check: func(t *testing.T, reqs []llmtest.Request, _ string, _ providerReport) {
		for _, r := range reqs {
			if len(r.Body.Tools) == 0 || r.Body.MaxCompletionTokens != 8192 {
				t.Errorf("request %d: %d tools, max_completion_tokens %d; want native calls as today", r.Seq, len(r.Body.Tools), r.Body.MaxCompletionTokens)
			}
		}
	}},
	"OpenAI reasoning models": {
		env: func(srv *llmtest.Server) testEnv {
			return with(baseEnv(srv), "OCR_LLM_EXTRA_BODY", `{"temperature": 0, "seed": 7}`)
		},
		quirks:    []llmtest.Quirks{{Refuse: []string{"temperature", "seed"}}},
		reasoning: true,
		check: func(t *testing.T, reqs []llmtest.Request, log string, rep providerReport) {
			logSays("refused temperature", "refused seed")(t, reqs, log, rep)
			if n := refused(reqs); n != 2 {
				t.Errorf("%d refused requests, want 2 (each parameter once)", n)
			}
			if rep.Usage.ReasoningTokens == 0 {
				t.Errorf("reasoning tokens not counted: %+v", rep.Usage)
			}
		}},
	"Azure OpenAI (portal URL)": {
		env: func(srv *llmtest.Server) testEnv {
			e := baseEnv(srv)
			delete(e, "OCR_LLM_MODEL")
			return with(e, "OCR_LLM_URL", strings.TrimSuffix(srv.URL, "/v1")+"/openai/deployments/gpt4o-prod/chat/completions?api-version=2024-06-01")
		},
		expect: func(srv *llmtest.Server) {
			srv.Expect("/openai/deployments/gpt4o-prod/chat/completions", "api-key", llmtest.Token)
		},
		quirks: []llmtest.Quirks{{Refuse: []string{"max_completion_tokens"}}},
		check: func(t *testing.T, reqs []llmtest.Request, log string, rep providerReport) {
			logSays("refused max_completion_tokens", "with max_tokens instead")(t, reqs, log, rep)
			last := reqs[len(reqs)-1]
			if last.Query != "api-version=2024-06-01" || last.Raw["max_tokens"] != float64(8192) || last.Body.Model != "gpt4o-prod" {
				t.Errorf("query %q, max_tokens %v, model %q", last.Query, last.Raw["max_tokens"], last.Body.Model)
			}
		}},
	"Azure OpenAI (v1 API)": {
		env: func(srv *llmtest.Server) testEnv {
			return with(baseEnv(srv), "OCR_LLM_URL", strings.TrimSuffix(srv.URL, "/v1")+"/openai/v1")
		},
		expect: func(srv *llmtest.Server) {
			srv.Expect("/openai/v1/chat/completions", "Authorization", "Bearer "+llmtest.Token)
		}},
	"Anthropic": {quirks: []llmtest.Quirks{{Window: 8192, WindowStyle: "anthropic"}},
		check: logSays("context window is 8192 tokens")},
	"Google Gemini": {quirks: []llmtest.Quirks{{NoCallIDs: true}}},
	"DeepSeek": {reasoning: true, check: func(t *testing.T, reqs []llmtest.Request, _ string, rep providerReport) {
		sentBack := false
		for _, r := range reqs {
			for _, m := range r.Body.Messages {
				sentBack = sentBack || (m.Role == openai.ChatMessageRoleAssistant && m.ReasoningContent != "" && len(m.ToolCalls) > 0)
			}
		}
		if !sentBack || rep.Usage.ReasoningTokens == 0 {
			t.Errorf("reasoning_content sent back with the calls: %v; reasoning tokens %d", sentBack, rep.Usage.ReasoningTokens)
		}
	}},
	"OpenRouter": {
		env: func(srv *llmtest.Server) testEnv { return with(baseEnv(srv), "OCR_LLM_EXTRA_HEADERS", "X-Title=ocr") },
		check: func(t *testing.T, reqs []llmtest.Request, _ string, _ providerReport) {
			if h := reqs[0].Header.Get("X-Title"); h != "ocr" {
				t.Errorf("X-Title = %q", h)
			}
		}},
	"Ollama": {quirks: []llmtest.Quirks{{NoTools: "ollama"}}, check: textProtocolUsed},
	"vLLM": {quirks: []llmtest.Quirks{{NoTools: "vllm", Window: 8192, WindowStyle: "vllm"}},
		check: func(t *testing.T, reqs []llmtest.Request, log string, rep providerReport) {
			textProtocolUsed(t, reqs, log, rep)
			logSays("context window is 8192 tokens")(t, reqs, log, rep)
		}},
	"llama.cpp server": {quirks: []llmtest.Quirks{{Window: 8192, WindowStyle: "llamacpp", Think: true}}, reasoning: true,
		check: func(t *testing.T, reqs []llmtest.Request, log string, rep providerReport) {
			logSays("context window is 8192 tokens")(t, reqs, log, rep)
			if last := reqs[len(reqs)-1]; last.Body.MaxCompletionTokens != 2048 {
				t.Errorf("max_completion_tokens %d, want a quarter of the window", last.Body.MaxCompletionTokens)
			}
		}},
	"LM Studio": {quirks: []llmtest.Quirks{{CallsInContent: "hermes"}, {CallsInContent: "mistral"}, {CallsInContent: "json"}}},
	"Qwen (Alibaba Cloud Model Studio / DashScope)": {
		env: func(srv *llmtest.Server) testEnv {
			return with(baseEnv(srv), "OCR_LLM_EXTRA_BODY", `{"enable_thinking": false}`)
		},
		check: func(t *testing.T, reqs []llmtest.Request, _ string, _ providerReport) {
			if reqs[0].Raw["enable_thinking"] != false {
				t.Errorf("enable_thinking = %v", reqs[0].Raw["enable_thinking"])
			}
		}},
}

// TestContextVariableAvoidsRefusal: with OCR_LLM_CONTEXT set, no request
// goes over the window, so none is refused.
func TestContextVariableAvoidsRefusal(t *testing.T) {
	t.Parallel()
	pc := providerCase{
		env: func(srv *llmtest.Server) testEnv { return with(baseEnv(srv), "OCR_LLM_CONTEXT", "8192") },
		check: func(t *testing.T, reqs []llmtest.Request, log string, _ providerReport) {
			if n := refused(reqs); n != 0 || strings.Contains(log, "context window is") {
				t.Errorf("%d refused requests with OCR_LLM_CONTEXT set:\n%s", n, log)
			}
		}}
	runProvider(t, pc, llmtest.Quirks{Window: 8192, WindowStyle: "llamacpp"})
}

func refused(reqs []llmtest.Request) int {
	n := 0
	for _, r := range reqs {
		if strings.HasPrefix(r.Script, "refused") {
			n++
		}
	}
	return n
}

func textProtocolUsed(t *testing.T, reqs []llmtest.Request, log string, rep providerReport) {
	t.Helper()
	logSays("text protocol")(t, reqs, log, rep)
	if len(reqs[0].Body.Tools) == 0 || !strings.HasPrefix(reqs[0].Script, "refused") {
		t.Errorf("the first request should offer tools and be refused")
	}
	for _, r := range reqs[1:] {
		if len(r.Body.Tools) != 0 {
			t.Errorf("request %d offers tools after the switch", r.Seq)
		}
	}
}

// providerRows reads the provider names of docs/providers.md's table.
func providerRows(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile("../docs/providers.md")
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, m := range regexp.MustCompile("(?m)^\\| ([^|`]+?) \\| `").FindAllStringSubmatch(string(data), -1) {
		if m[1] != "variable" && m[1] != "provider" && !strings.HasPrefix(m[1], "OCR_") {
			rows = append(rows, m[1])
		}
	}
	return rows
}

// TestProviders runs a review per row of docs/providers.md against a fake
// answering with that server's quirks.
func TestProviders(t *testing.T) {
	t.Parallel()
	rows := providerRows(t)
	for name := range providerCases {
		if !slices.Contains(rows, name) {
			t.Errorf("providerCases has %q, which docs/providers.md's table does not list", name)
		}
	}
	for _, row := range rows {
		pc, ok := providerCases[row]
		if !ok {
			t.Errorf("docs/providers.md lists %q without a test in providerCases", row)
			continue
		}
		variants := pc.quirks
		if len(variants) == 0 {
			variants = []llmtest.Quirks{{}}
		}
		for i, q := range variants {
			t.Run(fmt.Sprintf("%s/%d", row, i), func(t *testing.T) {
				t.Parallel()
				runProvider(t, pc, q)
			})
		}
	}
}

func runProvider(t *testing.T, pc providerCase, q llmtest.Quirks) {
	r := newTestRepo(t)
	r.write("calc/add.go", "package calc\n\nfunc Add(a, b int) int {\n\treturn 0\n}\n")
	r.write("calc/sub.go", "package calc\n\nfunc Sub(a, b int) int {\n\treturn 0\n}\n")
	r.commit("root")
	r.write("calc/add.go", "package calc\n\nfunc Add(a, b int) int {\n\treturn a - b\n}\n")
	r.write("calc/sub.go", "package calc\n\nfunc Sub(a, b int) int {\n\treturn a + b\n}\n")
	r.commit("swap")
	srv := llmtest.New(t)
	srv.Handle(oneCallPerAnswer(pc.reasoning))
	srv.SetQuirks(q)
	if pc.expect != nil {
		pc.expect(srv)
	}
	env := baseEnv(srv)
	if pc.env != nil {
		env = pc.env(srv)
	}
	code, out, log := env.run(t, "review", "--repo", r.dir, "--commit", "HEAD", "--format", "json", "--no-filter")
	if code != reporters.ExitOK {
		t.Fatalf("exit %d\n%s", code, log)
	}
	var rep providerReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	var places []string
	for _, c := range rep.Comments {
		places = append(places, fmt.Sprintf("%s:%d", c.Path, c.StartLine))
		if strings.Contains(c.Content, "think") {
			t.Errorf("reasoning leaked into a comment: %q", c.Content)
		}
	}
	slices.Sort(places)
	if rep.Status != review.StatusComplete || strings.Join(places, " ") != "calc/add.go:4 calc/sub.go:4" {
		t.Errorf("status %s, comments at %v; want both swapped operators found\n%s", rep.Status, places, log)
	}
	if pc.check != nil {
		pc.check(t, srv.Requests(), log, rep)
	}
}

var reviewed = regexp.MustCompile(`<file path="([^"]+)">\n(?:.*\n)*?\+(.*)\n`)

// oneCallPerAnswer plays a model that makes one call per answer (so it
// works through the text protocol too): it reads the first file under
// review, comments on the first added line of each, then finishes; with
// reasoning, it thinks before each answer.
func oneCallPerAnswer(reasoning bool) llmtest.Handler {
	return func(r llmtest.Request) llmtest.Answer {
		files := reviewed.FindAllStringSubmatch(r.FirstUser(), -1)
		turn := 0
		for _, m := range r.Body.Messages {
			if m.Role == openai.ChatMessageRoleAssistant {
				turn++
			}
		}
		var a llmtest.Answer
		switch {
		case len(files) == 0:
			return llmtest.Text("NONE")
		case turn == 0:
			a = llmtest.Calls(llmtest.Tool("file_read", map[string]any{"file_path": files[0][1]}))
		case turn == 1:
			var cs []map[string]string
			for _, f := range files {
				cs = append(cs, map[string]string{"path": f[1], "content": "The operator is swapped.", "existing_code": f[2], "category": "bug", "severity": "high"})
			}
			a = llmtest.Calls(llmtest.Tool("code_comment", map[string]any{"comments": cs}))
		default:
			a = llmtest.Calls(llmtest.Done())
		}
		if reasoning {
			a.Reasoning = fmt.Sprintf("I think turn %d needs a tool.", turn)
		}
		return a
	}
}

// TestEnvSaysWhatIsAdapted: ocr env names the tool protocol and why, the
// context window, and what it recognised in an Azure portal URL.
func TestEnvSaysWhatIsAdapted(t *testing.T) {
	t.Parallel()
	r := bugRepo(t)
	env := testEnv{"OCR_LLM_URL": "https://res.openai.azure.com/openai/deployments/gpt4o-prod/chat/completions?api-version=2024-10-21",
		"OCR_LLM_TOKEN": "abcdefgh12345", "OCR_LLM_TOOLS": "text", "OCR_LLM_CONTEXT": "32768"}
	code, out, errs := env.run(t, "env", "--repo", r.dir)
	if code != reporters.ExitOK {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	for _, want := range []string{
		"llm endpoint:  https://res.openai.azure.com (from OCR_LLM_URL)\n",
		"model:         gpt4o-prod (from the deployment in OCR_LLM_URL)\n",
		"llm tools:     text: tools described in the prompt, one JSON action per answer (from OCR_LLM_TOOLS)\n",
		"llm context:   32768 tokens (from OCR_LLM_CONTEXT)\n",
		"azure:         Azure portal URL: deployment gpt4o-prod, api-version 2024-10-21, key sent as api-key (recognised in OCR_LLM_URL)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("ocr env lacks %q:\n%s", want, out)
		}
	}
}
