package agent

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/internal/testkit/llmtest"
)

func TestFilterThroughLLMClient(t *testing.T) {
	drop := llmtest.Calls(llmtest.Tool(FilterTool, map[string]any{"drop": []map[string]any{{"id": 2, "reason": "not in the diff"}}}))
	s := llmtest.New(t, llmtest.Script{Name: "filter", Match: []string{"<comments>", "quote not in diff"},
		Answers: []llmtest.Answer{{Status: http.StatusServiceUnavailable}, drop}})
	c := client(t, s, nil)
	kept, usage, err := Filter(context.Background(), c, c.Model(), tinyDiff, threeComments())
	if err != nil || len(kept) != 2 || kept[1].StartLine != 4 {
		t.Fatalf("Filter = %+v, %v; want comments 1 and 3 after one retried 503", kept, err)
	}
	if usage.Requests != 2 || usage.PromptTokens == 0 { // the 503 was sent too
		t.Errorf("usage = %+v", usage)
	}
	reqs := s.Requests()
	if len(reqs) != 2 || !strings.Contains(reqs[1].FirstUser(), "[3] a.go:4 (bug, high)") || reqs[1].ToolNames()[0] != FilterTool {
		t.Errorf("requests = %d, first user of the last:\n%s", len(reqs), reqs[len(reqs)-1].FirstUser())
	}
}

func TestFilterThroughLLMClientFailsOpen(t *testing.T) {
	s := llmtest.New(t, llmtest.Script{Name: "filter", Match: []string{"<comments>"},
		Answers: []llmtest.Answer{llmtest.Calls(llmtest.Call{Name: FilterTool, Args: `{"drop": [{"id": 1, "reason": `})}})
	c := client(t, s, nil)
	kept, _, err := Filter(context.Background(), c, "", tinyDiff, threeComments())
	if err == nil || len(kept) != 3 {
		t.Errorf("Filter = %d comments, %v; want all 3 kept and an error", len(kept), err)
	}
}
