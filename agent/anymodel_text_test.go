package agent

import (
	"context"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/internal/infra/llm"
	"github.com/ocr-ci/ocr/internal/testkit/llmtest"
	"github.com/ocr-ci/ocr/tools"
)

// TestMalformedActionSameAnswer: under the text protocol a malformed
// action gets the same corrective answer as a malformed native call.
func TestMalformedActionSameAnswer(t *testing.T) {
	const broken = `{"file_path": "svc/calc.go", "start_line": }`
	// native: the call's arguments are malformed.
	_, nsrv := reviewWith(t, nil, Config{NoPlan: true}, mainScript(
		llmtest.Calls(llmtest.Call{Name: "file_read", Args: broken}), llmtest.Calls(llmtest.Done())))
	native := toolResults(nsrv.Requests()[1])
	// text: the same action written in the content.
	f := calcFixture(t)
	srv := llmtest.New(t, mainScript(
		llmtest.Text("Reading it.\n```json\n{\"tool\": \"file_read\", \"arguments\": "+broken+"}\n```"),
		llmtest.Text("```json\n{\"tool\": \"task_done\", \"arguments\": {\"state\": \"DONE\"},}\n```")))
	cfg := srv.Config()
	cfg.Tools = llm.ToolsText
	c, err := llm.New(cfg, llm.Options{})
	if err != nil {
		t.Fatal(err)
	}
	out := New(Config{NoPlan: true}, c, tools.Default()).Review(context.Background(), f.input)
	wantReviewed(t, out)
	msgs := srv.Requests()[1].Body.Messages
	got := msgs[len(msgs)-1].Content
	if len(native) != 1 || !strings.HasPrefix(native[0], "Error") || got != "Result of file_read:\n"+native[0] {
		t.Errorf("text protocol answered %q; native %q", got, native)
	}
}
