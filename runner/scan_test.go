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

func TestScanRefusesPosting(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	scanTree(r.write)
	r.commit("root")
	srv := llmtest.New(t)
	env := testEnv{}
	env.useLLM(srv)
	for _, kind := range []string{"github-review", "gitlab-discussion"} {
		code, _, errs := env.run(t, "scan", "--repo", r.dir, "--report", kind)
		if code != reporters.ExitUsage || !strings.Contains(errs, kind+" posts to a pull or merge request") {
			t.Errorf("--report %s: exit %d, stderr %q: want 2 and a clear refusal", kind, code, errs)
		}
	}
	for _, flag := range []string{"--commit=HEAD", "--full"} {
		code, _, errs := env.run(t, "scan", "--repo", r.dir, flag)
		if code != reporters.ExitUsage || !strings.Contains(errs, "not a diff") {
			t.Errorf("%s: exit %d, stderr %q: want 2", flag, code, errs)
		}
	}
	if code, _, errs := env.run(t, "scan", "--repo", r.dir, "nowhere/"); code != reporters.ExitUsage || !strings.Contains(errs, "matches no file") {
		t.Errorf("a PATH without files: exit %d, stderr %q", code, errs)
	}
	if code, _, errs := env.run(t, "scan", "--repo", r.dir, "../up"); code != reporters.ExitUsage || !strings.Contains(errs, "leaves the scanned tree") {
		t.Errorf("a PATH outside: exit %d, stderr %q", code, errs)
	}
	if code, _, errs := env.run(t, "scan", "--repo", t.TempDir(), "--ref", "HEAD"); code != reporters.ExitUsage || !strings.Contains(errs, "not in a git repository") {
		t.Errorf("--ref outside a repository: exit %d, stderr %q", code, errs)
	}
	if srv.Count() != 0 {
		t.Errorf("%d model requests for refused runs", srv.Count())
	}
}

func TestScanMaxFilesReportsBudget(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	scanTree(r.write)
	r.commit("root")
	srv := scanModel(t, nil)
	env := testEnv{}
	env.useLLM(srv)
	// Flags after the PATHs work too.
	code, out, errs := env.run(t, "scan", "--repo", r.dir, "svc", "lib", "--max-files", "2", "--format", "json", "--no-filter")
	if code != reporters.ExitOK {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	var got struct {
		Files []review.FileCoverage `json:"files"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	reviewed, budget := 0, ""
	for _, f := range got.Files {
		if f.Reviewed {
			reviewed++
		}
		if f.Reason == review.ReasonBudget {
			budget += f.Path + " " + f.Detail
		}
	}
	if reviewed != 2 || !strings.Contains(budget, "svc/util.go beyond --max-files 2") {
		t.Errorf("reviewed %d, budget %q: want 2 reviewed and svc/util.go left out by --max-files", reviewed, budget)
	}
	for _, req := range srv.Requests() {
		if strings.Contains(req.FirstUser(), `<file path="svc/util.go">`) {
			t.Errorf("a file beyond --max-files reached the model")
		}
	}
}

func TestScanPreview(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	scanTree(r.write)
	head := r.commit("root")
	env := testEnv{}
	code, out, errs := env.run(t, "scan", "--repo", r.dir, "--preview", "svc")
	if code != reporters.ExitOK {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	for _, want := range []string{"Preview (scan at " + head[:12] + ")", "[A]  svc/handler.go", "svc/.env  (secret)", "svc/vendor/dep/dep.go  (vendored)"} {
		if !strings.Contains(out, want) {
			t.Errorf("preview lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "lib/parse.go") {
		t.Errorf("preview lists a file outside the PATH:\n%s", out)
	}
}

// TestScanScheduledGitHub: a scheduled GitHub workflow gets the CI's
// default reports (annotations, step summary, SARIF) with the scan's SARIF
// category; on a pull request event the review poster is left out, not
// refused, since the user did not ask for it.
func TestScanScheduledGitHub(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	scanTree(r.write)
	head := r.commit("root")
	for _, event := range []string{"schedule", "pull_request"} {
		dir := t.TempDir()
		srv := scanModel(t, []scanFinding{{"lib/parse.go", "return n", 8}})
		env := testEnv{"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": event, "GITHUB_SHA": head,
			"GITHUB_REPOSITORY": "o/r", "GITHUB_SERVER_URL": "https://github.com", "GITHUB_API_URL": "http://127.0.0.1:1",
			"GITHUB_STEP_SUMMARY": filepath.Join(dir, "summary.md"), "OCR_SARIF_FILE": filepath.Join(dir, "ocr.sarif"),
			"OCR_PRICE_INPUT": "3", "OCR_PRICE_OUTPUT": "15"}
		env.useLLM(srv)
		if event == "pull_request" {
			pr := `{"pull_request": {"number": 5, "base": {"sha": "` + head + `", "repo": {"full_name": "o/r"}}, "head": {"sha": "` + head + `", "repo": {"full_name": "o/r"}}}}`
			env["GITHUB_EVENT_PATH"] = filepath.Join(dir, "event.json")
			if err := os.WriteFile(env["GITHUB_EVENT_PATH"], []byte(pr), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		code, out, errs := env.run(t, "scan", "--repo", r.dir, "--no-filter", "lib")
		if code != reporters.ExitOK {
			t.Fatalf("%s: exit %d\n%s", event, code, errs)
		}
		sarif, err := os.ReadFile(filepath.Join(dir, "ocr.sarif"))
		if err != nil || !strings.Contains(string(sarif), `"id": "ocr-scan/"`) {
			t.Errorf("%s: SARIF %v without the scan category", event, err)
		}
		summary, _ := os.ReadFile(filepath.Join(dir, "summary.md"))
		if !strings.Contains(string(summary), "· cost ") {
			t.Errorf("%s: the step summary lacks the cost:\n%s", event, summary)
		}
		if !strings.Contains(out, "::warning file=lib/parse.go,line=8") && !strings.Contains(out, "file=lib/parse.go,line=8") {
			t.Errorf("%s: no annotation on lib/parse.go:8:\n%s", event, out)
		}
		if event == "pull_request" && !strings.Contains(errs, "github-review left out: ocr scan does not post") {
			t.Errorf("the review poster was not left out with a notice:\n%s", errs)
		}
	}
}
