package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/reporters"
	"github.com/ocr-ci/ocr/review"
)

// TestPreviewAppliesRuleFile: the preview shows the selection the review
// makes, rule.json's include/exclude included, and fails like the review
// on a broken rule file or an unknown config ref.
func TestPreviewAppliesRuleFile(t *testing.T) {
	t.Parallel()
	env := testEnv{}
	r := newTestRepo(t)
	r.write(".ocr/rule.json", `{"exclude": ["infra/**"]}`)
	r.write("app.py", "x = 1\n")
	r.commit("root")
	r.write("app.py", "x = 2\n")
	r.write("infra/main.tf", "resource \"x\" \"y\" {}\n")
	r.commit("change")

	p := previewJSON(t, "--repo", r.dir, "--commit", "HEAD")
	checkReasons(t, p, map[string]review.Reason{"app.py": "", "infra/main.tf": review.ReasonUserExclude})
	if p.Totals.Reviewed != 1 || p.Totals.Excluded != 1 {
		t.Errorf("totals %+v, want 1 reviewed and 1 excluded", p.Totals)
	}

	bad := filepath.Join(t.TempDir(), "rule.json")
	if err := os.WriteFile(bad, []byte("{broken"), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, args := range map[string][]string{
		"broken --rule":      {"--rule", bad},
		"unknown config ref": {"--config-ref", "no-such-ref"},
	} {
		code, _, errs := env.run(t, append([]string{"review", "--preview", "--repo", r.dir, "--commit", "HEAD"}, args...)...)
		if code != reporters.ExitUsage || errs == "" {
			t.Errorf("%s: exit %d, stderr %q; want exit %d with a message", name, code, strings.TrimSpace(errs), reporters.ExitUsage)
		}
	}
}
