package agent

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	openai "github.com/sashabaranov/go-openai"

	"github.com/ocr-ci/ocr/internal/infra/llm"
	"github.com/ocr-ci/ocr/internal/testkit/llmtest"
	"github.com/ocr-ci/ocr/tools"
)

// oracle plays a model that knows the answer and makes one call per
// answer, so the native and the text protocol can be compared turn for
// turn: it reads the first file of its group, comments on the first added
// line of each file, then finishes.
func oracle(r llmtest.Request) llmtest.Answer {
	files := firstFile.FindAllStringSubmatch(r.FirstUser(), -1)
	if len(files) == 0 {
		return llmtest.Text("NONE")
	}
	turn := 0
	for _, m := range r.Body.Messages {
		if m.Role == openai.ChatMessageRoleAssistant {
			turn++
		}
	}
	switch turn {
	case 0:
		return llmtest.Calls(llmtest.Tool("file_read", map[string]any{"file_path": files[0][1], "start_line": 1, "end_line": 40}))
	case 1:
		var cs []map[string]string
		for _, f := range files {
			cs = append(cs, map[string]string{"path": f[1], "content": "Check this value.", "existing_code": firstAdded(f[2]), "category": "bug", "severity": "medium"})
		}
		return llmtest.Calls(llmtest.Tool("code_comment", map[string]any{"comments": cs}))
	}
	return llmtest.Calls(llmtest.Done())
}

// measured is one run of the oracle benchmark.
type measured struct {
	out      Output
	requests int
	places   []string
	progress string
}

// runOracle reviews 40 files (10 groups) with a background and a rule, as
// a team's CI would, against the oracle, with the given tool protocol and
// an OpenAI-style prefix cache.
func runOracle(t *testing.T, f *fixture, protocol string) measured {
	t.Helper()
	srv := llmtest.New(t)
	srv.Handle(oracle)
	srv.SetQuirks(llmtest.Quirks{Cache: true, TextModel: true})
	cfg := srv.Config()
	cfg.Tools = protocol
	c, err := llm.New(cfg, llm.Options{})
	if err != nil {
		t.Fatal(err)
	}
	in := f.input
	in.Background = strings.Repeat("This change rewrites the arithmetic of every package to scale each term by the file's index; callers rely on the old sums. ", 12)
	in.Rules = func(string) (string, string) {
		return "ocr/go", strings.Repeat("Check integer overflow, nil maps, unchecked errors and shadowed variables. ", 8)
	}
	var progress strings.Builder
	out := New(Config{Progress: &progress}, c, tools.Default()).Review(context.Background(), in)
	m := measured{out: out, requests: srv.Count(), progress: progress.String()}
	for _, cm := range out.Comments {
		m.places = append(m.places, fmt.Sprintf("%s:%d", cm.Path, cm.StartLine))
	}
	slices.Sort(m.places)
	return m
}

// TestTextProtocolMatchesNative is the any-model target (issue 31 item 1):
// on the oracle benchmark the text protocol places the same comments as
// native tool calls, with the same requests, at no more than 1.3x the
// prompt tokens. It also reports the share of prompt tokens a provider's
// prefix cache serves (item 6).
func TestTextProtocolMatchesNative(t *testing.T) {
	base, head := changeOf(40, 4, 10)
	f := newFixture(t, base, head)
	native := runOracle(t, f, llm.ToolsNative)
	text := runOracle(t, f, llm.ToolsText)
	ratio := float64(text.out.Usage.PromptTokens) / float64(native.out.Usage.PromptTokens)
	share := func(m measured) float64 {
		return 100 * float64(m.out.Usage.CachedTokens) / float64(m.out.Usage.PromptTokens)
	}
	t.Logf("oracle benchmark, 40 files: native %d requests, %d prompt tokens (%.1f%% cached); text %d requests, %d prompt tokens (%.1f%% cached); text/native prompt tokens %.3f; %d comments each",
		native.requests, native.out.Usage.PromptTokens, share(native), text.requests, text.out.Usage.PromptTokens, share(text), ratio, len(native.places))
	if native.out.Status != "complete" || text.out.Status != "complete" {
		t.Fatalf("status native %s, text %s: %v %v", native.out.Status, text.out.Status, native.out.Errors, text.out.Errors)
	}
	if len(native.places) != 40 || !slices.Equal(native.places, text.places) {
		t.Errorf("places differ:\nnative %v\ntext   %v", native.places, text.places)
	}
	if native.requests != text.requests {
		t.Errorf("requests: native %d, text %d", native.requests, text.requests)
	}
	// The background and the rules come before the group's own files, so
	// every group's first request shares them with the others: 71.4% of
	// the prompt tokens were cache-eligible with them after the diff.
	if share(native) < 75 {
		t.Errorf("cache-eligible share %.1f%% < 75%%: has the stable prefix moved?", share(native))
	}
	if !regexp.MustCompile(`tokens \([\d,]+ cached\) so far`).MatchString(native.progress) {
		t.Errorf("the progress lines do not show the cached tokens:\n%s", native.progress)
	}
	if ratio > 1.3 {
		t.Errorf("text protocol costs %.3fx the prompt tokens of native calls, over 1.3x", ratio)
	}
}
