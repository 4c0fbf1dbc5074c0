package runner

import (
	"strings"
	"testing"
)

// TestErrorsHaveOnePrefix: no error path of the CLI prints "ocr: ocr:"
// (an error wrapped with the prefix and printed with it again).
func TestErrorsHaveOnePrefix(t *testing.T) {
	t.Parallel()
	r := bugRepo(t)
	notRepo := t.TempDir()
	noLLM := testEnv{"OCR_LLM_URL": "", "OPENAI_API_KEY": ""}
	for _, tc := range []struct {
		env  testEnv
		args []string
	}{
		{testEnv{}, []string{"review", "--repo", r.dir, "--commit", "no-such-ref"}},
		{testEnv{}, []string{"review", "--repo", r.dir, "--from", "origin/release-1.0"}},
		{testEnv{}, []string{"review", "--repo", notRepo, "--commit", "HEAD"}},
		{testEnv{}, []string{"review", "--formt", "json"}},
		{testEnv{}, []string{"frobnicate"}},
		{testEnv{"OCR_MAX_FILES": "-1"}, []string{"review", "--repo", r.dir}},
		{testEnv{"OCR_CONCURRENCY": "many"}, []string{"review", "--repo", r.dir}},
		{testEnv{"OCR_LLM_TIMEOUT": "soon"}, []string{"review", "--repo", r.dir, "--commit", "HEAD"}},
		{noLLM, []string{"review", "--repo", r.dir, "--commit", "HEAD"}},
		{testEnv{}, []string{"scan", "--repo", r.dir, "no/such/path"}},
		{testEnv{}, []string{"scan", "--repo", r.dir, "--ref", "no-such-ref"}},
		{testEnv{}, []string{"tools", "call", "nope", "{}", "--repo", r.dir}},
		{testEnv{}, []string{"rules", "check"}},
		{testEnv{"OCR_TIMEOUT": "0s"}, []string{"env", "--repo", r.dir}},
	} {
		code, _, errs, panicked := runRecover(t, tc.env, tc.args...)
		if panicked != "" || code == 0 {
			t.Errorf("ocr %v: exit %d, panic %q; want a failure", tc.args, code, panicked)
		}
		for _, line := range strings.Split(errs, "\n") {
			if strings.Contains(line, "ocr: ocr:") {
				t.Errorf("ocr %v: doubled prefix: %s", tc.args, line)
			}
		}
	}
}
