package runner

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/internal/app/preview"
)

// TestCISettingsFilesReadAtTrustedRef: in a GitLab merge request pipeline
// the work tree is the merge request's checkout. --rule (OCR_RULE) naming
// a file in it is read at the trusted config ref (the base), so a merge
// request that rewrites the file to exclude everything, or points it
// through a symlink, changes nothing; a path outside the repository is
// read from disk; a file missing at the base is a usage error.
func TestCISettingsFilesReadAtTrustedRef(t *testing.T) {
	t.Parallel()
	const benign = `{"exclude": ["docs/**"]}`
	for _, c := range []struct {
		name    string
		rule    string // the --rule path, relative to the checkout
		hostile func(r *testRepo)
	}{
		{"rewritten", "ci/rule.json", func(r *testRepo) { r.write("ci/rule.json", `{"exclude": ["**"]}`) }},
		{"rewritten, absolute path", "ABS:ci/rule.json", func(r *testRepo) { r.write("ci/rule.json", `{"exclude": ["*.go"]}`) }},
		{"include nothing", "./ci/../ci/rule.json", func(r *testRepo) { r.write("ci/rule.json", `{"include": ["none/**"]}`) }},
		{"symlinked directory", "ci/rule.json", func(r *testRepo) {
			evil := t.TempDir()
			if err := os.WriteFile(filepath.Join(evil, "rule.json"), []byte(`{"exclude": ["**"]}`), 0o644); err != nil {
				t.Fatal(err)
			}
			r.git("rm", "-rq", "ci")
			if err := os.Symlink(evil, filepath.Join(r.dir, "ci")); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := newTestRepo(t)
			r.write("ci/rule.json", benign)
			r.write("a.go", "package a\n")
			base := r.commit("base")
			r.write("a.go", "package a\n\nfunc A() { evil() }\n")
			c.hostile(r)
			head := r.commit("merge request")
			setenv(t, map[string]string{"GITLAB_CI": "true", "CI_MERGE_REQUEST_IID": "5", "CI_MERGE_REQUEST_DIFF_BASE_SHA": base,
				"CI_COMMIT_SHA": head, "CI_PROJECT_ID": "42"})
			workIn(t, r.dir)
			rule := c.rule
			if p, ok := strings.CutPrefix(rule, "ABS:"); ok {
				rule = filepath.Join(r.dir, p)
			}
			code, stdout, stderr := run(t, "review", "--preview", "--format", "json", "--rule", rule)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			var p preview.Preview
			if err := json.Unmarshal([]byte(stdout), &p); err != nil {
				t.Fatalf("%v\n%s", err, stdout)
			}
			if len(p.Files) == 0 || p.Files[0].Path != "a.go" || !p.Files[0].Reviewed {
				t.Errorf("the merge request's own --rule file decided the selection: %+v", p.Files)
			}
		})
	}
	t.Run("outside the repository", func(t *testing.T) {
		t.Parallel()
		r := newTestRepo(t)
		r.write("a.go", "package a\n")
		base := r.commit("base")
		r.write("a.go", "package a\n\nfunc A() {}\n")
		head := r.commit("merge request")
		rule := filepath.Join(t.TempDir(), "rule.json")
		if err := os.WriteFile(rule, []byte(`{"exclude": ["*.go"]}`), 0o644); err != nil {
			t.Fatal(err)
		}
		setenv(t, map[string]string{"GITLAB_CI": "true", "CI_MERGE_REQUEST_IID": "5", "CI_MERGE_REQUEST_DIFF_BASE_SHA": base,
			"CI_COMMIT_SHA": head, "CI_PROJECT_ID": "42"})
		workIn(t, r.dir)
		code, stdout, stderr := run(t, "review", "--preview", "--format", "json", "--rule", rule)
		if code != 0 || !strings.Contains(stdout, `"reviewed": false`) {
			t.Errorf("a rule file outside the checkout is the CI's own and applies: exit %d\n%s%s", code, stdout, stderr)
		}
		code, _, stderr = run(t, "review", "--preview", "--background-file", "notes.md")
		if code != 2 || !strings.Contains(stderr, "trusted ref") {
			t.Errorf("a background file missing at the base: exit %d, %s", code, stderr)
		}
	})
}
