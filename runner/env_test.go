package runner

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/internal/app/ci"
	"github.com/ocr-ci/ocr/internal/app/config"
	"github.com/ocr-ci/ocr/internal/app/setup"
	"github.com/ocr-ci/ocr/reporters"
	"github.com/ocr-ci/ocr/review/reportspec"
)

func eventFile(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "event.json")
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

const prEvent = `{"pull_request":{"number":7,
  "base":{"sha":"b000000000000000000000000000000000000000","repo":{"full_name":"o/r"}},
  "head":{"sha":"h000000000000000000000000000000000000000","repo":{"full_name":"%s"}}},
  "repository":{"full_name":"o/r","default_branch":"main"}}`

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }

func TestEnvCommandMasksSecrets(t *testing.T) {
	t.Parallel()
	env := testEnv{}
	ev := eventFile(t, sprintf(prEvent, "o/r"))
	for k, v := range map[string]string{
		"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": ev,
		"GITHUB_REPOSITORY": "o/r", "GITHUB_TOKEN": "ghs_secretsecret", "OCR_LLM_URL": "https://llm.example.com/v1/chat/completions",
		"OCR_LLM_TOKEN": "sk-verysecret", "OCR_LLM_MODEL": "m1", "GITHUB_STEP_SUMMARY": filepath.Join(t.TempDir(), "summary.md"),
	} {
		env.set(k, v)
	}
	code, out, errs := env.run(t, "env")
	if code != reporters.ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"platform:", "github", "range:", "b000000000000000000000000000000000000000..h000000000000000000000000000000000000000",
		"pull request:", "#7", "github-review", "https://llm.example.com", "m1", "set (16 characters)"} {
		if !strings.Contains(out, want) {
			t.Errorf("ocr env lacks %q:\n%s", want, out)
		}
	}
	for _, secret := range []string{"ghs_secretsecret", "sk-verysecret", "/chat/completions"} {
		if strings.Contains(out+errs, secret) {
			t.Errorf("ocr env printed %q:\n%s", secret, out)
		}
	}
}

func TestApplyContextFlagsWin(t *testing.T) {
	t.Parallel()
	cfg := &config.Config{Commit: "mine", SarifFile: "out.sarif"}
	setup.ApplyContext(cfg, ci.Context{From: "a", To: "b", ConfigRef: "a", Reports: []reportspec.Spec{{Kind: reportspec.KindGitHubSummary}, ci.DefaultSARIF}})
	if cfg.Commit != "mine" || cfg.From != "" {
		t.Errorf("an explicit --commit must win over the detected range: %+v", cfg)
	}
	if !reflect.DeepEqual(cfg.Reports, []string{"github-summary", "sarif=out.sarif"}) {
		t.Errorf("reports = %v", cfg.Reports)
	}
}

// TestPlainVariablesChangeNothing: REPO, COMMIT, FORMAT, OUTPUT, TIMEOUT and
// MODEL, common in CI jobs, are not ocr's settings; `ocr env` and a preview
// read the same with and without them.
func TestPlainVariablesChangeNothing(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	r.write("a.go", "package a\n")
	r.commit("one")
	r.write("a.go", "package a\n\nvar X = 1\n")
	out := filepath.Join(t.TempDir(), "plain.json")
	plain := testEnv{"REPO": "/nonexistent", "COMMIT": "deadbeef", "FORMAT": "json", "OUTPUT": out,
		"TIMEOUT": "1s", "MODEL": "other-model", "OCR_LLM_URL": "https://llm.example.com/v1", "OCR_LLM_MODEL": "m1", "OCR_LLM_TOKEN": "t"}
	clean := testEnv{"OCR_LLM_URL": "https://llm.example.com/v1", "OCR_LLM_MODEL": "m1", "OCR_LLM_TOKEN": "t"}
	for _, args := range [][]string{{"env", "--repo", r.dir}, {"review", "--preview", "--repo", r.dir}} {
		c1, o1, e1 := clean.run(t, args...)
		c2, o2, e2 := plain.run(t, args...)
		if c1 != reporters.ExitOK || c1 != c2 || o1 != o2 || e1 != e2 {
			t.Errorf("%v: without plain variables exit %d\n%s%s\nwith them exit %d\n%s%s", args, c1, o1, e1, c2, o2, e2)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("OUTPUT was taken for --output")
	}
}
