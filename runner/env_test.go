package runner

import (
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/reporters"
)

func TestEnvCommandMasksSecrets(t *testing.T) {
	clearCI(t)
	ev := eventFile(t, sprintf(prEvent, "o/r"))
	for k, v := range map[string]string{
		"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": ev,
		"GITHUB_REPOSITORY": "o/r", "GITHUB_TOKEN": "ghs_secretsecret", "OCR_LLM_URL": "https://llm.example.com/v1/chat/completions",
		"OCR_LLM_TOKEN": "sk-verysecret", "OCR_LLM_MODEL": "m1", "GITHUB_STEP_SUMMARY": "",
	} {
		t.Setenv(k, v)
	}
	code, out, errs := run(t, "env")
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
