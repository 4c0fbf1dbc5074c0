package runner

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/internal/testkit/llmtest"
	"github.com/ocr-ci/ocr/reporters"
	"github.com/ocr-ci/ocr/review"
)

// TestRetriedRequestsAreCounted: against an endpoint that answers 503 four
// times and then the review, five requests were sent, and every count says
// so: the final stderr line, the text report and the JSON usage (it said
// "1 request(s)").
func TestRetriedRequestsAreCounted(t *testing.T) {
	t.Parallel()
	env := testEnv{}
	r := bugRepo(t)
	busy := llmtest.Answer{Status: 503, RetryAfter: "0"}
	srv := llmtest.New(t, llmtest.Script{Match: []string{"store/store.go"}, Answers: []llmtest.Answer{
		busy, busy, busy, busy, llmtest.Calls(llmtest.Done()),
	}})
	env.useLLM(srv)
	js := filepath.Join(t.TempDir(), "ocr.json")
	code, out, errs := env.run(t, "review", "--repo", r.dir, "--commit", "HEAD", "--no-filter",
		"--report", "json="+js, "--report", "text")
	if code != reporters.ExitOK {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	if n := srv.Count(); n != 5 {
		t.Fatalf("the endpoint saw %d requests, want 5", n)
	}
	if !strings.Contains(errs, ": 0 comment(s), 5 request(s),") {
		t.Errorf("the final line does not count 5 requests:\n%s", errs)
	}
	if !strings.Contains(out, "5 request(s)") {
		t.Errorf("the text report does not count 5 requests:\n%s", out)
	}
	var got struct {
		Usage review.Usage `json:"usage"`
	}
	if err := json.Unmarshal([]byte(readFile(t, js)), &got); err != nil || got.Usage.Requests != 5 {
		t.Errorf("JSON usage %+v (%v), want 5 requests", got.Usage, err)
	}
}
