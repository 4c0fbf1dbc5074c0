package runner

import (
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/reporters"
)

func TestEnvCommandShowsThePostingFloorAndBudget(t *testing.T) {
	t.Parallel()
	env := testEnv{"OCR_LLM_URL": "http://127.0.0.1:1/v1", "OCR_LLM_MODEL": "m"}
	code, out, errs := env.run(t, "env")
	if code != reporters.ExitOK || !strings.Contains(out, "comments at or above medium (OCR_POST_MIN_SEVERITY), at most 10 new inline per push (OCR_MAX_INLINE)") {
		t.Errorf("exit %d, defaults not shown:\n%s%s", code, out, errs)
	}
	env["OCR_POST_MIN_SEVERITY"], env["OCR_MAX_INLINE"] = "HIGH", "3"
	if code, out, _ = env.run(t, "env"); !strings.Contains(out, "at or above high (OCR_POST_MIN_SEVERITY), at most 3 new inline") {
		t.Errorf("exit %d, settings not shown:\n%s", code, out)
	}
	env["OCR_POST_MIN_SEVERITY"] = "info"
	if code, _, errs = env.run(t, "env"); code != reporters.ExitUsage || !strings.Contains(errs, "want critical, high, medium or low") {
		t.Errorf("exit %d for a bad floor:\n%s", code, errs)
	}
}
