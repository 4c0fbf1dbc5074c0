package runner

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/anchor"
	"github.com/ocr-ci/ocr/internal/llm/llmtest"
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

func TestWriteAddedDiffParses(t *testing.T) {
	cases := map[string]struct {
		path, content string
		lines         int
		binary        bool
	}{
		"plain":      {"a.go", "x\ny\n", 2, false},
		"no newline": {"a.go", "x\ny", 2, false},
		"crlf":       {"a.go", "x\r\ny\r\n", 2, false},
		"empty":      {"a.go", "", 0, false},
		"binary":     {"a.bin", "a\x00b", 0, true},
		"odd name":   {"dir/a \"q\"\t\u00e9.go", "x\n", 1, false},
	}
	for name, c := range cases {
		var b strings.Builder
		writeAddedDiff(&b, c.path, []byte(c.content))
		files, err := anchor.ParseString(b.String())
		if err != nil || len(files) != 1 {
			t.Errorf("%s: %v, %d files\n%s", name, err, len(files), b.String())
			continue
		}
		f := files[0]
		if f.Path() != c.path || f.Additions != c.lines || f.Binary != c.binary || f.Status != anchor.StatusAdded {
			t.Errorf("%s: path %q +%d binary %v status %s", name, f.Path(), f.Additions, f.Binary, f.Status)
		}
	}
}
