package runner

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/internal/testkit/llmtest"
	"github.com/ocr-ci/ocr/reporters"
	"github.com/ocr-ci/ocr/review"
)

// useLLM points the LLM configuration at a scripted server.
func useLLM(t *testing.T, srv *llmtest.Server) {
	setVar(t, "OCR_LLM_URL", srv.URL)
	setVar(t, "OCR_LLM_TOKEN", llmtest.Token)
	setVar(t, "OCR_LLM_MODEL", llmtest.Model)
}

// bugRepo is a repository whose last commit adds a nil dereference.
func bugRepo(t *testing.T) *testRepo {
	r := newTestRepo(t)
	r.write("store/store.go", "package store\n\nfunc Get(m map[string]*int, k string) int {\n\treturn 0\n}\n")
	r.commit("root")
	r.write("store/store.go", "package store\n\nfunc Get(m map[string]*int, k string) int {\n\tv := m[k]\n\treturn *v\n}\n")
	r.commit("deref")
	return r
}

func TestReviewCommitJSON(t *testing.T) {
	t.Parallel()
	env := testEnv{}
	r := bugRepo(t)
	srv := llmtest.New(t, llmtest.Script{Match: []string{"store/store.go"}, Answers: []llmtest.Answer{
		llmtest.Calls(llmtest.Tool("file_read", map[string]any{"file_path": "store/store.go"})),
		llmtest.Calls(llmtest.Tool("code_comment", map[string]any{"comments": []map[string]string{{
			"content": "v may be nil when k is missing", "existing_code": "return *v",
			"category": "bug", "severity": "high"}}}), llmtest.Done()),
	}})
	env.useLLM(srv)
	code, out, errs := env.run(t, "review", "--repo", r.dir, "--commit", "HEAD", "--format", "json", "--no-filter")
	if code != reporters.ExitOK {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	var got struct {
		Status   review.Status    `json:"status"`
		Comments []map[string]any `json:"comments"`
		Usage    review.Usage     `json:"usage"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if got.Status != review.StatusComplete || len(got.Comments) != 1 {
		t.Fatalf("status %s, %d comments:\n%s", got.Status, len(got.Comments), out)
	}
	c := got.Comments[0]
	if c["path"] != "store/store.go" || c["side"] != "new" || c["start_line"] != 5.0 || c["in_diff"] != true {
		t.Errorf("comment placed at %v:%v side %v in_diff %v, want store/store.go:5 new side in the diff", c["path"], c["start_line"], c["side"], c["in_diff"])
	}
	if got.Usage.Requests != 2 {
		t.Errorf("requests = %d, want 2", got.Usage.Requests)
	}
}

func TestReviewFailOnAndReports(t *testing.T) {
	t.Parallel()
	env := testEnv{}
	r := bugRepo(t)
	srv := llmtest.New(t, llmtest.Script{Match: []string{"store/store.go"}, Answers: []llmtest.Answer{
		llmtest.Calls(llmtest.Tool("code_comment", map[string]any{"comments": []map[string]string{{
			"content": "nil dereference", "existing_code": "return *v", "category": "bug", "severity": "critical"}}}), llmtest.Done()),
	}})
	env.useLLM(srv)
	dir := t.TempDir()
	sarif, cq := filepath.Join(dir, "ocr.sarif"), filepath.Join(dir, "cq.json")
	code, out, errs := env.run(t, "review", "--repo", r.dir, "--commit", "HEAD", "--no-filter", "--fail-on", "high",
		"--report", "sarif="+sarif, "--report", "codequality="+cq, "--report", "text")
	if code != reporters.ExitFindings {
		t.Fatalf("exit %d, want %d (a critical finding with --fail-on high)\n%s", code, reporters.ExitFindings, errs)
	}
	if !strings.Contains(out, "nil dereference") {
		t.Errorf("text report lacks the comment:\n%s", out)
	}
	for _, p := range []string{sarif, cq} {
		data, err := os.ReadFile(p)
		if err != nil || !json.Valid(data) {
			t.Errorf("%s: %v (valid JSON: %v)", p, err, json.Valid(data))
		}
	}
}

func TestReviewLLMDownExits3(t *testing.T) {
	t.Parallel()
	env := testEnv{}
	r := bugRepo(t)
	srv := llmtest.New(t)
	srv.Handle(func(llmtest.Request) llmtest.Answer { return llmtest.Answer{Status: 401} })
	env.useLLM(srv)
	code, out, errs := env.run(t, "review", "--repo", r.dir, "--commit", "HEAD", "--format", "json", "--no-filter")
	if code != reporters.ExitIncomplete {
		t.Fatalf("exit %d, want 3 when the provider refuses\n%s", code, errs)
	}
	if !strings.Contains(out, `"status": "failed"`) || !strings.Contains(out, "provider_error") {
		t.Errorf("the JSON must say the review failed and why:\n%s", out)
	}
	code, _, _ = env.run(t, "review", "--repo", r.dir, "--commit", "HEAD", "--format", "json", "--no-filter", "--allow-partial")
	if code != reporters.ExitIncomplete {
		t.Errorf("--allow-partial accepts gaps, not a review of nothing: exit %d, want 3", code)
	}
}

func TestReviewMissingLLMConfigIsUsage(t *testing.T) {
	t.Parallel()
	env := testEnv{}
	for _, k := range []string{"OCR_LLM_URL", "OCR_LLM_TOKEN", "OCR_LLM_MODEL", "OPENAI_API_KEY", "OPENAI_BASE_URL"} {
		env.set(k, "")
	}
	r := bugRepo(t)
	code, _, errs := env.run(t, "review", "--repo", r.dir, "--commit", "HEAD")
	if code != reporters.ExitUsage || !strings.Contains(errs, "OCR_LLM_URL") {
		t.Errorf("exit %d, stderr %q: want 2 naming OCR_LLM_URL", code, errs)
	}
}

func TestReviewUnwritableReportFailsFirst(t *testing.T) {
	t.Parallel()
	env := testEnv{}
	r := bugRepo(t)
	srv := llmtest.New(t)
	env.useLLM(srv)
	// A missing folder is made; one below a regular file cannot be.
	blocker := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(blocker, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, errs := env.run(t, "review", "--repo", r.dir, "--commit", "HEAD", "--report", "sarif="+filepath.Join(blocker, "dir", "x.sarif"))
	if code != reporters.ExitUsage || srv.Count() != 0 {
		t.Errorf("exit %d, %d requests, stderr %q: want exit 2 before any request", code, srv.Count(), errs)
	}
}
