package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/ocr-ci/ocr/reporters"
)

// TestInitWritesTheForgesFile: ocr init reads the forge from the origin
// remote (https, ssh and scp-like URLs), writes the CI file for it, and
// prints what is still to set and `ocr env`; the GitHub workflow has the
// review and both comment events, the GitLab file the component include.
func TestInitWritesTheForgesFile(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		remote, file string
		want         []string // in stdout
		check        func(t *testing.T, doc map[string]any)
	}{
		{"git@github.com:me/proj.git", ".github/workflows/ocr.yml", []string{"OCR_LLM_TOKEN", "ocr env"}, func(t *testing.T, doc map[string]any) {
			on, _ := doc["on"].(map[string]any)
			for _, ev := range []string{"pull_request", "issue_comment", "pull_request_review_comment"} {
				if _, ok := on[ev]; !ok {
					t.Errorf("the workflow lacks the %s event: %v", ev, on)
				}
			}
		}},
		{"https://gitlab.com/g/p.git", ".gitlab-ci.yml", []string{"OCR_LLM_URL", "OCR_LLM_TOKEN", "OCR_GITLAB_TOKEN", "api scope", "ocr env"}, checkInclude},
		{"ssh://git@gitlab.example.com:2222/g/p.git", ".gitlab-ci.yml", []string{"OCR_GITLAB_TOKEN", "self-managed GitLab (gitlab.example.com)"}, checkInclude},
	} {
		t.Run(tc.remote, func(t *testing.T) {
			t.Parallel()
			r := dirtyRepo(t)
			r.git("remote", "add", "origin", tc.remote)
			code, out, errs := testEnv{}.run(t, "init", "--repo", r.dir)
			if code != reporters.ExitOK || !strings.Contains(out, "wrote "+tc.file) {
				t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errs)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("stdout lacks %q:\n%s", w, out)
				}
			}
			raw, err := os.ReadFile(filepath.Join(r.dir, tc.file))
			if err != nil {
				t.Fatal(err)
			}
			var doc map[string]any
			if err := yaml.Unmarshal(raw, &doc); err != nil {
				t.Fatalf("%s is not YAML: %v", tc.file, err)
			}
			tc.check(t, doc)
		})
	}
}

func checkInclude(t *testing.T, doc map[string]any) {
	t.Helper()
	inc, _ := doc["include"].([]any)
	first, _ := inc[0].(map[string]any)
	if c, _ := first["component"].(string); !strings.HasPrefix(c, "gitlab.com/ocr-ci/ocr/review@") {
		t.Errorf("include %v: want the ocr component", doc["include"])
	}
}

// TestInitNeverOverwrites: an existing .gitlab-ci.yml is left byte for
// byte, and the include to add is printed; a second init on GitHub leaves
// the workflow as it is.
func TestInitNeverOverwrites(t *testing.T) {
	t.Parallel()
	r := dirtyRepo(t)
	r.git("remote", "add", "origin", "https://gitlab.com/g/p.git")
	mine := "stages: [build]\nbuild:\n  script: make\n"
	r.write(".gitlab-ci.yml", mine)
	code, out, _ := testEnv{}.run(t, "init", "--repo", r.dir)
	got, _ := os.ReadFile(filepath.Join(r.dir, ".gitlab-ci.yml"))
	if code != reporters.ExitOK || string(got) != mine || !strings.Contains(out, "exists: left as it is; add this to it") ||
		!strings.Contains(out, "component: gitlab.com/ocr-ci/ocr/review@") {
		t.Errorf("exit %d, file %q, stdout:\n%s", code, got, out)
	}
	r.write(".github/workflows/ocr.yml", "name: mine\n")
	_, out, _ = testEnv{}.run(t, "init", "--repo", r.dir, "--forge", "github")
	if got, _ := os.ReadFile(filepath.Join(r.dir, ".github/workflows/ocr.yml")); string(got) != "name: mine\n" || !strings.Contains(out, "exists: left as it is") {
		t.Errorf("the workflow was overwritten: %q\n%s", got, out)
	}
}

// TestInitWithoutAKnownForge: no origin, or a host that names no forge,
// is refused with the hint --forge, and the hint works.
func TestInitWithoutAKnownForge(t *testing.T) {
	t.Parallel()
	for _, remote := range []string{"", "https://git.example.org/p.git"} {
		r := dirtyRepo(t)
		if remote != "" {
			r.git("remote", "add", "origin", remote)
		}
		code, out, errs := testEnv{}.run(t, "init", "--repo", r.dir)
		if code != reporters.ExitUsage || out != "" || !strings.Contains(errs, "pass --forge github or --forge gitlab") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", remote, code, out, errs)
		}
		env := testEnv{}
		if code, out, _ := env.run(t, "init", "--repo", r.dir, "--forge", "gitlab"); code != reporters.ExitOK || !strings.Contains(out, "wrote .gitlab-ci.yml") {
			t.Errorf("%q with --forge gitlab: exit %d, %s", remote, code, out)
		}
	}
}

// TestInitWorkflowIsTheDocumentedOne: the workflow init writes is the one
// docs/conversation.md shows, so the two cannot drift apart.
func TestInitWorkflowIsTheDocumentedOne(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("../docs/conversation.md")
	if err != nil {
		t.Fatal(err)
	}
	wf, err := os.ReadFile("../internal/app/scaffold/github.yml")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), "```yaml\n"+string(wf)+"```\n") {
		t.Errorf("internal/app/scaffold/github.yml is not the workflow of docs/conversation.md")
	}
}
