package runner

// Checks that action.yml, gitlab/ocr.yml, the Dockerfile and the setup docs
// say what the code does: every variable they set is one ocr reads, every
// default loads, every output is one ocr writes.

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/ocr-ci/ocr/internal/app/config"
	"github.com/ocr-ci/ocr/reporters"
	"github.com/ocr-ci/ocr/review/reportspec"
)

// pkgFlagField maps every flag of `ocr review` to the OCR_* variable of the
// config.Config field it sets, by the field's address.
func pkgFlagField() map[string]string { return config.FlagEnv() }

var (
	pkgFlagRow = regexp.MustCompile("(?m)^\\| `--([a-z-]+)` \\| `(OCR_[A-Z_]+)` \\|")
	pkgVarRef  = regexp.MustCompile(`\bOCR_[A-Z0-9_]*[A-Z0-9]\b`)
)

// TestReferenceDocumentsTheCode: docs/reference.md pairs every flag with the
// variable of the same field and names every variable ocr reads, every
// input, output, report kind and exit code; the setup docs name no OCR_*
// variable that ocr does not read.
func TestReferenceDocumentsTheCode(t *testing.T) {
	t.Parallel()
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
	for _, k := range reportspec.Kinds {
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
	for _, f := range []string{"docs/github.md", "docs/github-forks.md", "docs/gitlab.md", "docs/reference.md",
		"docs/troubleshooting.md", "docs/providers.md", "gitlab/README.md", "gitlab/templates/review.yml", "action.yml"} {
		for _, v := range pkgVarRef.FindAllString(string(pkgRead(t, f)), -1) {
			if vars[v].spec == nil {
				t.Errorf("%s mentions %s, which ocr does not read", f, v)
			}
		}
	}
}

// pkgExamplePages maps each example workflow to the page that embeds it.
var pkgExamplePages = map[string]string{
	"docs/examples/github-quickstart.yml":   "docs/github.md",
	"docs/examples/github-pr.yml":           "docs/github.md",
	"docs/examples/github-fork.yml":         "docs/github-forks.md",
	"docs/examples/github-scan-shards.yml":  "docs/scan.md",
	"docs/examples/github-conversation.yml": "docs/conversation.md",
}

// TestDocsExamples: the example workflows are embedded verbatim in their
// page, pass only inputs the action has, pin a release of the action, and
// key any concurrency group on the workflow (a group spans the repository:
// without github.workflow, one workflow cancels another's review).
func TestDocsExamples(t *testing.T) {
	t.Parallel()
	a := pkgLoadAction(t)
	files, _ := filepath.Glob("../docs/examples/*.yml")
	if len(files) != len(pkgExamplePages) {
		t.Errorf("docs/examples: %d workflows, want %d (%v)", len(files), len(pkgExamplePages), pkgKeys(pkgExamplePages))
	}
	for _, f := range files {
		f = strings.TrimPrefix(f, "../")
		data, page := pkgRead(t, f), pkgExamplePages[f]
		if page == "" || !strings.Contains(string(pkgRead(t, page)), "```yaml\n"+string(data)+"```") {
			t.Errorf("%s is not embedded verbatim in its page %q", f, page)
		}
		var wf struct {
			Concurrency any `yaml:"concurrency"`
			Jobs        map[string]struct {
				Concurrency any    `yaml:"concurrency"`
				Container   string `yaml:"container"`
				Steps       []struct {
					Uses string            `yaml:"uses"`
					With map[string]string `yaml:"with"`
				} `yaml:"steps"`
			} `yaml:"jobs"`
		}
		if err := yaml.Unmarshal(data, &wf); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		groups := []any{wf.Concurrency}
		uses, image := 0, 0
		for _, job := range wf.Jobs {
			groups = append(groups, job.Concurrency)
			if strings.HasPrefix(job.Container, "ghcr.io/ocr-ci/ocr:") {
				image++ // a scan runs ocr from the image: the action runs ocr review
			}
			for _, s := range job.Steps {
				if !strings.HasPrefix(s.Uses, "ocr-ci/ocr@") {
					continue
				}
				uses++
				if !regexp.MustCompile(`@v\d+$`).MatchString(s.Uses) {
					t.Errorf("%s uses %s: want a release of the action (@v1)", f, s.Uses)
				}
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
		if uses != 1 && (uses != 0 || image == 0) {
			t.Errorf("%s uses ocr-ci/ocr %d times, want once (or ocr's image as the jobs' container)", f, uses)
		}
		for _, g := range groups {
			if m, ok := g.(map[string]any); ok {
				g = m["group"]
			}
			if s, ok := g.(string); g != nil && (!ok || !strings.Contains(s, "github.workflow")) {
				t.Errorf("%s: concurrency group %v does not include github.workflow", f, g)
			}
		}
	}
}

// TestQuickStarts: docs/github.md and docs/gitlab.md open with a YAML block
// of at most 12 lines: the GitHub one on pull_request with one uses: of
// the action, the GitLab one a single include with inputs.
func TestQuickStarts(t *testing.T) {
	t.Parallel()
	first := func(page string) string {
		_, rest, ok := strings.Cut(string(pkgRead(t, page)), "```yaml\n")
		block, _, _ := strings.Cut(rest, "```")
		if !ok {
			t.Fatalf("%s has no YAML block", page)
		}
		if n := strings.Count(block, "\n"); n > 12 {
			t.Errorf("%s: the quick start is %d lines of YAML, want at most 12:\n%s", page, n, block)
		}
		return block
	}
	gh := first("docs/github.md")
	if gh != string(pkgRead(t, "docs/examples/github-quickstart.yml")) {
		t.Error("docs/github.md does not open with docs/examples/github-quickstart.yml")
	}
	var wf struct {
		On any `yaml:"on"`
	}
	if err := yaml.Unmarshal([]byte(gh), &wf); err != nil || wf.On != "pull_request" {
		t.Errorf("GitHub quick start: on = %v (%v), want pull_request", wf.On, err)
	}
	gl := first("docs/gitlab.md")
	var inc struct {
		Include []map[string]any `yaml:"include"`
	}
	if err := yaml.Unmarshal([]byte(gl), &inc); err != nil || len(inc.Include) != 1 || inc.Include[0]["inputs"] == nil ||
		!strings.HasPrefix(fmt.Sprint(inc.Include[0]["component"]), "gitlab.com/ocr-ci/ocr/review@") {
		t.Errorf("GitLab quick start: want one include: component: gitlab.com/ocr-ci/ocr/review@… with inputs, got %+v (%v)", inc, err)
	}
}

// TestNoLatestTag: nothing tells users to run an image or a version by the
// moving name latest.
func TestNoLatestTag(t *testing.T) {
	t.Parallel()
	files := []string{"README.md", "action.yml", ".goreleaser.yaml", "gitlab/README.md", "gitlab/templates/review.yml", "gitlab/.gitlab-ci.yml"}
	docs, _ := filepath.Glob("../docs/*.md")
	examples, _ := filepath.Glob("../docs/examples/*.yml")
	for _, f := range append(docs, examples...) {
		files = append(files, strings.TrimPrefix(f, "../"))
	}
	latest := regexp.MustCompile(`:latest\b|@latest\b`)
	for _, f := range files {
		if m := latest.FindString(string(pkgRead(t, f))); m != "" {
			t.Errorf("%s names %s: pin a version", f, m)
		}
	}
}

// pkgEnvCommand runs `ocr env` in-process and returns its output; exit 2
// when it lists a problem (the variables a workflow sets through secrets
// are left unset here).
func pkgEnvCommand(t *testing.T) string {
	t.Helper()
	var out, errb bytes.Buffer
	c := &Command{Stdout: &out, Stderr: &errb, LookupEnv: envOf(t).lookup}
	code := c.Main(context.Background(), []string{"ocr", "env"})
	if problems := strings.Contains(out.String(), "\nproblem:"); code != reporters.ExitOK && (code != reporters.ExitUsage || !problems) {
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
	t.Parallel()
	pkgSetActionEnv(t, pkgLoadAction(t))
	event := filepath.Join(t.TempDir(), "event.json")
	payload := `{"pull_request": {"number": 7, "base": {"sha": "` + strings.Repeat("a", 40) + `", "repo": {"full_name": "o/r"}},
		"head": {"sha": "` + strings.Repeat("b", 40) + `", "repo": {"full_name": "o/r"}}}}`
	if err := os.WriteFile(event, []byte(payload), 0o644); err != nil {
		t.Fatal(err)
	}
	for k, v := range map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "pull_request",
		"GITHUB_EVENT_PATH": event, "GITHUB_REPOSITORY": "o/r"} {
		setVar(t, k, v)
	}
	out := pkgEnvCommand(t)
	pkgWantLines(t, out, "platform:      github", "pull request:  #7", "mode:          range",
		"reports:       github-review, github-annotations, github-summary, sarif=ocr.sarif",
		"llm endpoint:  https://api.openai.com/v1 (from OCR_LLM_URL)", "model:         m (from OCR_LLM_MODEL)",
		"llm token:     not set (OCR_LLM_TOKEN or OPENAI_API_KEY)", "github token:  set (10 characters)")
	if strings.Contains(out, "ghs_secret") {
		t.Error("ocr env printed the token")
	}
}

// TestGitLabTemplateEnvironmentDetectsTheMergeRequest runs `ocr env` with
// the template's variables in a merge request pipeline.
func TestGitLabTemplateEnvironmentDetectsTheMergeRequest(t *testing.T) {
	t.Parallel()
	_, jobs, _ := pkgGitLab(t)
	for k, v := range jobs["ocr-review"].Variables {
		setVar(t, k, v)
	}
	for k, v := range map[string]string{"GITLAB_CI": "true", "CI_PIPELINE_SOURCE": "merge_request_event",
		"CI_MERGE_REQUEST_IID": "5", "CI_MERGE_REQUEST_DIFF_BASE_SHA": strings.Repeat("a", 40),
		"CI_COMMIT_SHA": strings.Repeat("b", 40), "CI_PROJECT_ID": "42", "CI_API_V4_URL": "https://gitlab.example.com/api/v4",
		"OCR_LLM_URL": "http://localhost:11434/v1", "OCR_LLM_MODEL": "qwen2.5-coder:14b", "OCR_GITLAB_TOKEN": "glpat-secret"} {
		setVar(t, k, v)
	}
	out := pkgEnvCommand(t)
	pkgWantLines(t, out, "platform:      gitlab", "merge request: !5", "mode:          range",
		"reports:       gitlab-discussion, codequality=gl-code-quality-report.json, sarif=ocr.sarif, text",
		"llm endpoint:  http://localhost:11434/v1 (from OCR_LLM_URL)", "model:         qwen2.5-coder:14b (from OCR_LLM_MODEL)")
	if strings.Contains(out, "glpat-secret") || strings.Contains(out, "problem: no LLM") {
		t.Errorf("ocr env printed a token or a problem:\n%s", out)
	}
}

// TestReadmeOpensWithTheQuickStarts: README.md's first two YAML blocks are
// the GitHub quick start (docs/examples/github-quickstart.yml) and the
// GitLab one (docs/gitlab.md's), before the commands and the contributor
// detail.
func TestReadmeOpensWithTheQuickStarts(t *testing.T) {
	t.Parallel()
	readme := string(pkgRead(t, "README.md"))
	blocks := regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllStringSubmatch(readme, 2)
	if len(blocks) < 2 {
		t.Fatalf("README.md has %d YAML blocks, want the two quick starts first", len(blocks))
	}
	if blocks[0][1] != string(pkgRead(t, "docs/examples/github-quickstart.yml")) {
		t.Errorf("README.md's first YAML block is not docs/examples/github-quickstart.yml:\n%s", blocks[0][1])
	}
	_, gl, _ := strings.Cut(string(pkgRead(t, "docs/gitlab.md")), "```yaml\n")
	if gl, _, _ = strings.Cut(gl, "```"); blocks[1][1] != gl {
		t.Errorf("README.md's second YAML block is not docs/gitlab.md's quick start:\n%s", blocks[1][1])
	}
	order := []string{"## Quick start", "## Two commands", "## Commands", "## Contributing", ".ci/run"}
	for i := 1; i < len(order); i++ {
		if strings.Index(readme, order[i-1]) > strings.Index(readme, order[i]) {
			t.Errorf("README.md: %q comes after %q", order[i-1], order[i])
		}
	}
}

// TestOneExitCodeTable: the exit codes are tabled once, in
// docs/reference.md; a page that speaks of them links there.
func TestOneExitCodeTable(t *testing.T) {
	t.Parallel()
	pages, _ := filepath.Glob("../docs/*.md")
	row := regexp.MustCompile(`(?m)^\| [0-3] \|`)
	about := regexp.MustCompile(`(?mi)^#+ exit (codes|status)|exit codes[ :(]`)
	for _, f := range append(pages, "../README.md", "../gitlab/README.md") {
		f = strings.TrimPrefix(f, "../")
		if f == "docs/reference.md" {
			continue
		}
		text := string(pkgRead(t, f))
		if row.MatchString(text) {
			t.Errorf("%s has a table of exit codes: link docs/reference.md#exit-codes instead", f)
		}
		if about.MatchString(text) && !strings.Contains(text, "reference.md#exit-codes") {
			t.Errorf("%s speaks of the exit codes without linking reference.md#exit-codes", f)
		}
	}
}
