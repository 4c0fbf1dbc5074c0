package runner

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/ocr-ci/ocr/internal/testkit/llmtest"
	"github.com/ocr-ci/ocr/reporters"
	"github.com/ocr-ci/ocr/review"
)

// BenchmarkScanInternal scans this repository's own internal/ at HEAD
// with a scripted model that ends every group at once (task_done), and
// reports what the run sent (plan phases of large groups included): the cost of a scan's prompts (whole files,
// tools, rules) without the model's own work.
//
//	go test ./runner -run '^$' -bench ScanInternal -benchtime 3x
func BenchmarkScanInternal(b *testing.B) {
	srv := llmtest.New(b)
	srv.SetRecord(false)
	srv.Handle(func(r llmtest.Request) llmtest.Answer {
		if !slices.Contains(r.ToolNames(), "code_comment") {
			return llmtest.Text("Plan: read each file once.") // the plan phase ends with text
		}
		return llmtest.Calls(llmtest.Done())
	})
	env := testEnv{}
	env.useLLM(srv)
	out := filepath.Join(b.TempDir(), "scan.json")
	var got struct {
		Files []review.FileCoverage `json:"files"`
		Usage review.Usage          `json:"usage"`
	}
	for b.Loop() {
		code, _, errs := env.run(b, "scan", "--repo", modulePath(), "--no-filter", "--max-files", "1000",
			"--report", "json="+out, "internal/")
		if code != reporters.ExitOK {
			b.Fatalf("exit %d\n%s", code, errs)
		}
		if os.Getenv("OCR_BENCH_LOG") != "" {
			b.Log(errs)
		}
	}
	data, err := os.ReadFile(out)
	if err != nil || json.Unmarshal(data, &got) != nil {
		b.Fatalf("JSON report: %v", err)
	}
	reviewed := 0
	for _, f := range got.Files {
		if f.Reviewed {
			reviewed++
		}
	}
	b.ReportMetric(float64(len(got.Files)), "files")
	b.ReportMetric(float64(reviewed), "reviewed")
	b.ReportMetric(float64(got.Usage.Requests), "requests")
	b.ReportMetric(float64(got.Usage.PromptTokens), "prompt-tokens")
	b.ReportMetric(float64(got.Usage.CompletionTokens), "completion-tokens")
}
