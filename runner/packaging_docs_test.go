package runner

// Checks that action.yml, gitlab/ocr.yml, the Dockerfile and the setup docs
// say what the code does: every variable they set is one ocr reads, every
// default loads, every output is one ocr writes.

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/ocr-ci/ocr/internal/config"
	"github.com/ocr-ci/ocr/reporters"
)

// pkgFlagField maps every flag of `ocr review` to the OCR_* variable of the
// config.Config field it sets, by the field's address.
func pkgFlagField() map[string]string {
	var cfg config.Config
	fs := flag.NewFlagSet("review", flag.ContinueOnError)
	cfg.Bind(fs)
	byAddr := map[uintptr]string{}
	rv := reflect.ValueOf(&cfg).Elem()
	for i := range rv.NumField() {
		byAddr[rv.Field(i).Addr().Pointer()] = rv.Type().Field(i).Tag.Get("env")
	}
	out := map[string]string{}
	fs.VisitAll(func(f *flag.Flag) {
		addr := reflect.ValueOf(f.Value).Pointer()
		if l, ok := f.Value.(*config.ListFlag); ok {
			addr = reflect.ValueOf(l.Values()).Pointer()
		}
		out[f.Name] = byAddr[addr]
	})
	return out
}

var (
	pkgFlagRow = regexp.MustCompile("(?m)^\\| `--([a-z-]+)` \\| `(OCR_[A-Z_]+)` \\|")
	pkgVarRef  = regexp.MustCompile(`\bOCR_[A-Z0-9_]*[A-Z0-9]\b`)
)

// TestReferenceDocumentsTheCode: docs/reference.md pairs every flag with the
// variable of the same field and names every variable ocr reads, every
// input, output, report kind and exit code; the setup docs name no OCR_*
// variable that ocr does not read.
func TestReferenceDocumentsTheCode(t *testing.T) {
	ref := string(pkgRead(t, "docs/reference.md"))
	flags, documented := pkgFlagField(), map[string]string{}
	for _, m := range pkgFlagRow.FindAllStringSubmatch(ref, -1) {
		documented[m[1]] = m[2]
	}
	for name, v := range flags {
		if documented[name] != v {
			t.Errorf("docs/reference.md: want the row | `--%s` | `%s` |, got %q", name, v, documented[name])
		}
	}
	for name := range documented {
		if _, ok := flags[name]; !ok {
			t.Errorf("docs/reference.md documents --%s, which ocr review does not have", name)
		}
	}
	a := pkgLoadAction(t)
	var names []string
	for k := range pkgVars(t) {
		names = append(names, k)
	}
	names = append(append(append(names, pkgKeys(a.Inputs)...), pkgKeys(a.Outputs)...), "ocr env")
	for _, k := range reporters.Kinds {
		names = append(names, string(k))
	}
	for _, n := range names {
		if !strings.Contains(ref, "`"+n+"`") {
			t.Errorf("docs/reference.md does not mention `%s`", n)
		}
	}
	for code := reporters.ExitOK; code <= reporters.ExitIncomplete; code++ {
		if !regexp.MustCompile(`(?m)^\| ` + string(rune('0'+code)) + ` \|`).MatchString(ref) {
			t.Errorf("docs/reference.md: no row for exit code %d", code)
		}
	}
	_, empty, _ := strings.Cut(ref, "**Empty values.**")
	empty, _, _ = strings.Cut(empty, "\n\n")
	for k, s := range pkgVars(t) {
		if strings.HasPrefix(k, "OCR_") && pkgRefusesEmpty(t, k, s) && !strings.Contains(empty, "`"+k+"`") {
			t.Errorf("docs/reference.md: the Empty values paragraph does not name %s, which refuses an empty value", k)
		}
	}
	pkgCheckVarMentions(t, pkgVars(t))
}

func pkgCheckVarMentions(t *testing.T, vars map[string]pkgSource) {
	for _, f := range []string{"docs/github.md", "docs/gitlab.md", "docs/reference.md", "docs/troubleshooting.md",
		"docs/providers.md", "gitlab/README.md", "gitlab/ocr.yml", "action.yml"} {
		for _, v := range pkgVarRef.FindAllString(string(pkgRead(t, f)), -1) {
			if vars[v].spec == nil {
				t.Errorf("%s mentions %s, which ocr does not read", f, v)
			}
		}
	}
}

// TestDocsExamples: the example workflows are embedded verbatim in
// docs/github.md and pass only inputs the action has.
func TestDocsExamples(t *testing.T) {
	a, doc := pkgLoadAction(t), string(pkgRead(t, "docs/github.md"))
	files, _ := filepath.Glob("../docs/examples/*.yml")
	if len(files) < 2 {
		t.Fatalf("docs/examples: %d workflows, want the same-repository and the fork one", len(files))
	}
	for _, f := range files {
		data := pkgRead(t, strings.TrimPrefix(f, "../"))
		if !strings.Contains(doc, "```yaml\n"+string(data)+"```") {
			t.Errorf("docs/github.md does not embed %s verbatim", f)
		}
		var wf struct {
			Jobs map[string]struct {
				Steps []struct {
					Uses string            `yaml:"uses"`
					With map[string]string `yaml:"with"`
				} `yaml:"steps"`
			} `yaml:"jobs"`
		}
		if err := yaml.Unmarshal(data, &wf); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		uses := 0
		for _, job := range wf.Jobs {
			for _, s := range job.Steps {
				if !strings.HasPrefix(s.Uses, "ocr-ci/ocr@") {
					continue
				}
				uses++
				for k := range s.With {
					if _, ok := a.Inputs[k]; !ok {
						t.Errorf("%s passes %s, which action.yml does not declare", f, k)
					}
				}
				for k, in := range a.Inputs {
					if _, ok := s.With[k]; in.Required && !ok {
						t.Errorf("%s lacks the required input %s", f, k)
					}
				}
			}
		}
		if uses != 1 {
			t.Errorf("%s uses ocr-ci/ocr %d times, want once", f, uses)
		}
	}
}

// pkgClean unsets every variable ocr reads, whatever the machine has.
func pkgClean(t *testing.T) {
	for k := range pkgVars(t) {
		t.Setenv(k, "")
		if err := os.Unsetenv(k); err != nil {
			t.Fatal(err)
		}
	}
}

// pkgEnvCommand runs `ocr env` in-process and returns its output.
func pkgEnvCommand(t *testing.T) string {
	t.Helper()
	var out, errb bytes.Buffer
	c := &Command{Stdout: &out, Stderr: &errb, LookupEnv: os.LookupEnv}
	if code := c.Main(context.Background(), []string{"ocr", "env"}); code != reporters.ExitOK {
		t.Fatalf("ocr env: exit %d: %s", code, errb.String())
	}
	return out.String()
}

// pkgWantLines checks `ocr env` rows, ignoring the column padding.
func pkgWantLines(t *testing.T, out string, want ...string) {
	t.Helper()
	pad := regexp.MustCompile(`(?m)^([a-z ]+):\s+`)
	out = pad.ReplaceAllString(out, "$1: ")
	for _, w := range want {
		if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(pad.ReplaceAllString(w, "$1: ")) + `$`).MatchString(out) {
			t.Errorf("ocr env lacks the line %q:\n%s", w, out)
		}
	}
}

// TestActionEnvironmentDetectsThePullRequest runs `ocr env` with what the
// runner gives the action's container on a pull_request event.
func TestActionEnvironmentDetectsThePullRequest(t *testing.T) {
	pkgClean(t)
	pkgSetActionEnv(t, pkgLoadAction(t))
	event := filepath.Join(t.TempDir(), "event.json")
	payload := `{"pull_request": {"number": 7, "base": {"sha": "` + strings.Repeat("a", 40) + `", "repo": {"full_name": "o/r"}},
		"head": {"sha": "` + strings.Repeat("b", 40) + `", "repo": {"full_name": "o/r"}}}}`
	if err := os.WriteFile(event, []byte(payload), 0o644); err != nil {
		t.Fatal(err)
	}
	for k, v := range map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "pull_request",
		"GITHUB_EVENT_PATH": event, "GITHUB_REPOSITORY": "o/r"} {
		t.Setenv(k, v)
	}
	out := pkgEnvCommand(t)
	pkgWantLines(t, out, "platform:      github", "pull request:  #7", "mode:          range",
		"reports:       github-review, github-annotations, github-summary, sarif=ocr.sarif",
		"llm endpoint:  https://api.openai.com", "model:         m", "github token:  set (10 characters)")
	if strings.Contains(out, "ghs_secret") {
		t.Error("ocr env printed the token")
	}
}

// TestGitLabTemplateEnvironmentDetectsTheMergeRequest runs `ocr env` with
// the template's variables in a merge request pipeline.
func TestGitLabTemplateEnvironmentDetectsTheMergeRequest(t *testing.T) {
	pkgClean(t)
	_, jobs, _ := pkgGitLab(t)
	for k, v := range jobs["ocr-review"].Variables {
		t.Setenv(k, v)
	}
	for k, v := range map[string]string{"GITLAB_CI": "true", "CI_PIPELINE_SOURCE": "merge_request_event",
		"CI_MERGE_REQUEST_IID": "5", "CI_MERGE_REQUEST_DIFF_BASE_SHA": strings.Repeat("a", 40),
		"CI_COMMIT_SHA": strings.Repeat("b", 40), "CI_PROJECT_ID": "42", "CI_API_V4_URL": "https://gitlab.example.com/api/v4",
		"OCR_LLM_URL": "http://localhost:11434/v1", "OCR_LLM_MODEL": "qwen2.5-coder:14b", "OCR_GITLAB_TOKEN": "glpat-secret"} {
		t.Setenv(k, v)
	}
	out := pkgEnvCommand(t)
	pkgWantLines(t, out, "platform:      gitlab", "pull request:  #5", "mode:          range",
		"reports:       gitlab-discussion, codequality=gl-code-quality-report.json, sarif=ocr.sarif, text",
		"llm endpoint:  http://localhost:11434", "model:         qwen2.5-coder:14b")
	if strings.Contains(out, "glpat-secret") || strings.Contains(out, "llm problem") {
		t.Errorf("ocr env printed a token or a problem:\n%s", out)
	}
}
