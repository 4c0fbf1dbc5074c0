package runner

// Checks that action.yml, gitlab/ocr.yml, the Dockerfile and the setup docs
// say what the code does: every variable they set is one ocr reads, every
// default loads, every output is one ocr writes.

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/kelseyhightower/envconfig"
	"gopkg.in/yaml.v3"

	"github.com/ocr-ci/ocr/internal/llm"
	"github.com/ocr-ci/ocr/internal/review"
	"github.com/ocr-ci/ocr/reporters"
)

// pkgSource is one struct ocr fills with envconfig.Process(prefix, ...).
type pkgSource struct {
	prefix string
	spec   func() any
}

// pkgVars maps every variable ocr reads to the struct that reads it, keyed
// as envconfig itself derives them.
func pkgVars(t *testing.T) map[string]pkgSource {
	t.Helper()
	sources := []pkgSource{
		{"OCR", func() any { return &Config{} }},
		{"", func() any { return &llm.Config{} }},
		{"", func() any { return &GitHubEnv{} }},
		{"", func() any { return &GitLabEnv{} }},
		{"", func() any { return &TermEnv{} }},
	}
	vars := map[string]pkgSource{}
	for _, s := range sources {
		var buf bytes.Buffer
		if err := envconfig.Usagef(s.prefix, s.spec(), &buf, "{{range .}}{{usage_key .}}\n{{end}}"); err != nil {
			t.Fatal(err)
		}
		for _, k := range strings.Fields(buf.String()) {
			vars[k] = s
		}
	}
	return vars
}

// pkgRefusesEmpty reports whether envconfig fails on key set to "" (ints,
// bools, durations and decoders do; strings and lists do not).
func pkgRefusesEmpty(t *testing.T, key string, s pkgSource) bool {
	t.Setenv(key, "")
	defer os.Unsetenv(key)
	return envconfig.Process(s.prefix, s.spec()) != nil
}

func pkgRead(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", path))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

type pkgAction struct {
	Inputs map[string]struct {
		Description string  `yaml:"description"`
		Required    bool    `yaml:"required"`
		Default     *string `yaml:"default"`
	} `yaml:"inputs"`
	Outputs map[string]struct {
		Description string `yaml:"description"`
	} `yaml:"outputs"`
	Runs struct {
		Using string            `yaml:"using"`
		Image string            `yaml:"image"`
		Args  []string          `yaml:"args"`
		Env   map[string]string `yaml:"env"`
	} `yaml:"runs"`
}

func pkgLoadAction(t *testing.T) pkgAction {
	t.Helper()
	var a pkgAction
	if err := yaml.Unmarshal(pkgRead(t, "action.yml"), &a); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	return a
}

// pkgEnvName is the OCR_* variable an input or flag name maps to.
func pkgEnvName(name string) string {
	return "OCR_" + strings.ToUpper(strings.ReplaceAll(name, "-", "_"))
}

var pkgInputRef = regexp.MustCompile(`^\$\{\{ inputs\.([a-z0-9-]+) \}\}$`)

func TestActionInputsMapToVariablesOCRReads(t *testing.T) {
	a, vars := pkgLoadAction(t), pkgVars(t)
	want := []string{"allow-partial", "concurrency", "exclude", "fail-on", "github-token", "language", "llm-model",
		"llm-token", "llm-url", "max-inline", "max-tokens-budget", "reports", "rule", "sarif-file", "version"}
	if got := pkgKeys(a.Inputs); !reflect.DeepEqual(got, want) {
		t.Errorf("inputs = %v, want %v", got, want)
	}
	mapped := map[string]string{}
	for key, val := range a.Runs.Env {
		m := pkgInputRef.FindStringSubmatch(val)
		switch {
		case m == nil:
			t.Errorf("runs.env %s = %q: want ${{ inputs.NAME }}", key, val)
		case vars[key].spec == nil:
			t.Errorf("runs.env %s: ocr reads no such variable", key)
		case key != pkgEnvName(m[1]):
			t.Errorf("runs.env %s maps input %s: want %s", key, m[1], pkgEnvName(m[1]))
		default:
			mapped[m[1]] = key
		}
	}
	for name, in := range a.Inputs {
		key, ok := mapped[name]
		if !ok && name != "version" { // version: the Docker action runs the ref in uses:
			t.Errorf("input %s is not passed to ocr", name)
		}
		if in.Description == "" || in.Required != (in.Default == nil) {
			t.Errorf("input %s: want a description, and a default exactly when not required", name)
		}
		if ok && pkgRefusesEmpty(t, key, vars[key]) && (in.Default == nil || *in.Default == "") {
			t.Errorf("input %s: %s refuses an empty value, so the input needs a non-empty default", name, key)
		}
	}
}

// pkgSetActionEnv sets runs.env as the runner would with only the required
// inputs given: every other input at its default.
func pkgSetActionEnv(t *testing.T, a pkgAction) {
	given := map[string]string{"llm-url": "https://api.openai.com/v1", "llm-model": "m", "github-token": "ghs_secret"}
	for key, val := range a.Runs.Env {
		m := pkgInputRef.FindStringSubmatch(val)
		if m == nil || a.Inputs[m[1]].Default == nil && given[m[1]] == "" {
			t.Fatalf("runs.env %s = %q: not an input with a default", key, val)
		}
		v, ok := given[m[1]]
		if !ok {
			v = *a.Inputs[m[1]].Default
		}
		t.Setenv(key, v)
	}
}

// TestActionDefaultsLoad sets every variable of runs.env to its input's
// default and checks the configuration loads with the CLI's defaults.
func TestActionDefaultsLoad(t *testing.T) {
	pkgClean(t)
	pkgSetActionEnv(t, pkgLoadAction(t))
	cfg, err := loadEnv()
	if err != nil {
		t.Fatalf("action defaults: %v", err)
	}
	if _, err := loadLLM(&cfg); err != nil {
		t.Fatalf("action defaults: %v", err)
	}
	if _, err := reporters.ParseFailOn(cfg.FailOn); err != nil {
		t.Error(err)
	}
	var cli Config
	cli.defaults()
	cfg.defaults()
	if cfg.Concurrency != cli.Concurrency || cfg.MaxInline != cli.MaxInline || cfg.MaxTokensBudget != cli.MaxTokensBudget ||
		cfg.AllowPartial != cli.AllowPartial || cfg.SarifFile != cli.SarifFile || len(cfg.Reports)+len(cfg.Exclude) != 0 {
		t.Errorf("action defaults differ from the CLI's:\naction %+v\ncli    %+v", cfg, cli)
	}
}

// TestActionOutputsAreWhatOCRWrites runs the $GITHUB_OUTPUT reporter.
func TestActionOutputsAreWhatOCRWrites(t *testing.T) {
	a := pkgLoadAction(t)
	var buf bytes.Buffer
	rv := &review.Review{Status: review.StatusComplete, Comments: []review.Comment{{Severity: review.SeverityHigh}}}
	if err := (&reporters.GitHubOutput{W: &buf, SARIFPath: "ocr.sarif"}).Report(context.Background(), rv); err != nil {
		t.Fatal(err)
	}
	var written []string
	for _, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		name, _, _ := strings.Cut(line, "=")
		written = append(written, name)
	}
	sort.Strings(written)
	if got := pkgKeys(a.Outputs); !reflect.DeepEqual(got, written) {
		t.Errorf("outputs = %v, ocr writes %v", got, written)
	}
	if a.Runs.Using != "docker" || a.Runs.Image != "Dockerfile" || !reflect.DeepEqual(a.Runs.Args, []string{"review"}) {
		t.Errorf("runs = %+v, want the repository's Dockerfile running `review`", a.Runs)
	}
}

func pkgKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

type pkgGitLabJob struct {
	Image struct {
		Name       string   `yaml:"name"`
		Entrypoint []string `yaml:"entrypoint"`
	} `yaml:"image"`
	Rules []struct {
		If string `yaml:"if"`
	} `yaml:"rules"`
	Interruptible bool              `yaml:"interruptible"`
	ResourceGroup string            `yaml:"resource_group"`
	Variables     map[string]string `yaml:"variables"`
	Script        []string          `yaml:"script"`
	Artifacts     struct {
		When    string            `yaml:"when"`
		Reports map[string]string `yaml:"reports"`
		Paths   []string          `yaml:"paths"`
	} `yaml:"artifacts"`
}

type pkgGitLabSpec struct {
	Spec struct {
		Inputs map[string]struct {
			Type    string   `yaml:"type"`
			Default any      `yaml:"default"`
			Options []string `yaml:"options"`
		} `yaml:"inputs"`
	} `yaml:"spec"`
}

var pkgInputUse = regexp.MustCompile(`\$\[\[ inputs\.([a-z0-9-]+) \]\]`)

// pkgGitLab parses gitlab/ocr.yml as its two documents, the second with
// every $[[ inputs.X ]] replaced by the input's default.
func pkgGitLab(t *testing.T) (pkgGitLabSpec, map[string]pkgGitLabJob, map[string]bool) {
	t.Helper()
	head, body, ok := strings.Cut(string(pkgRead(t, "gitlab/ocr.yml")), "\n---\n")
	if !ok {
		t.Fatal("gitlab/ocr.yml: want two YAML documents, spec and jobs, separated by ---")
	}
	var spec pkgGitLabSpec
	if err := yaml.Unmarshal([]byte(head), &spec); err != nil {
		t.Fatalf("gitlab/ocr.yml spec: %v", err)
	}
	used := map[string]bool{}
	body = pkgInputUse.ReplaceAllStringFunc(body, func(s string) string {
		name := pkgInputUse.FindStringSubmatch(s)[1]
		used[name] = true
		in, ok := spec.Spec.Inputs[name]
		if !ok {
			t.Errorf("gitlab/ocr.yml uses undeclared input %s", name)
		}
		b, _ := json.Marshal(in.Default)
		return strings.Trim(string(b), `"`)
	})
	var jobs map[string]pkgGitLabJob
	if err := yaml.Unmarshal([]byte(body), &jobs); err != nil {
		t.Fatalf("gitlab/ocr.yml jobs: %v", err)
	}
	return spec, jobs, used
}

func TestGitLabTemplate(t *testing.T) {
	spec, jobs, used := pkgGitLab(t)
	for name := range spec.Spec.Inputs {
		if !used[name] {
			t.Errorf("input %s is declared but never used", name)
		}
	}
	for _, o := range spec.Spec.Inputs["fail-on"].Options {
		if _, err := reporters.ParseFailOn(o); err != nil {
			t.Errorf("fail-on option: %v", err)
		}
	}
	for name, in := range spec.Spec.Inputs { // GitLab rejects a default of the wrong type or outside options
		_, isNum := in.Default.(int)
		_, isBool := in.Default.(bool)
		str, isStr := in.Default.(string)
		ok := map[string]bool{"number": isNum, "boolean": isBool, "": isStr}[in.Type]
		if !ok || (len(in.Options) > 0 && !pkgContains(in.Options, str)) {
			t.Errorf("input %s: default %v does not fit type %q / options %v", name, in.Default, in.Type, in.Options)
		}
	}
	job, ok := jobs["ocr-review"]
	if len(jobs) != 1 || !ok {
		t.Fatalf("jobs = %v, want one job ocr-review", pkgKeys(jobs))
	}
	if len(job.Rules) == 0 || job.Rules[0].If != `$CI_PIPELINE_SOURCE == "merge_request_event"` {
		t.Errorf("rules = %+v, want merge request pipelines", job.Rules)
	}
	if !job.Interruptible || !strings.Contains(job.ResourceGroup, "$CI_MERGE_REQUEST_IID") {
		t.Errorf("want interruptible and one review per merge request at a time, got %v %q", job.Interruptible, job.ResourceGroup)
	}
	if !reflect.DeepEqual(job.Image.Entrypoint, []string{""}) {
		t.Errorf("image entrypoint = %q: the image's ENTRYPOINT is ocr; GitLab needs a shell", job.Image.Entrypoint)
	}
	pkgCheckGitLabEnv(t, job)
}

// pkgCheckGitLabEnv loads the job's variables (with the inputs' defaults)
// the way ocr does and checks the reports land where the artifacts look.
func pkgCheckGitLabEnv(t *testing.T, job pkgGitLabJob) {
	vars := pkgVars(t)
	for k, v := range job.Variables {
		if vars[k].spec == nil && k != "GIT_DEPTH" {
			t.Errorf("variable %s: ocr reads no such variable", k)
		}
		t.Setenv(k, v)
	}
	cfg, err := loadEnv()
	if err != nil {
		t.Fatalf("template defaults: %v", err)
	}
	specs, err := reporters.ParseSpecs(cfg.Reports...)
	if err != nil {
		t.Fatal(err)
	}
	paths := map[reporters.Kind]string{}
	for _, s := range specs {
		paths[s.Kind] = s.Path
	}
	cq := job.Artifacts.Reports["codequality"]
	if _, post := paths[reporters.KindGitLabDiscussion]; !post || cq == "" || paths[reporters.KindCodeQuality] != cq {
		t.Errorf("reports %v: want gitlab-discussion and codequality=%q (the artifacts' report)", cfg.Reports, cq)
	}
	if p := paths[reporters.KindSARIF]; p == "" || !pkgContains(job.Artifacts.Paths, p) || job.Artifacts.When != "always" {
		t.Errorf("want the SARIF file %q among artifacts (when: always), got %+v", p, job.Artifacts)
	}
	if strings.Join(job.Script, "\n") != "ocr env\nocr review" {
		t.Errorf("script = %q", job.Script)
	}
}

func pkgContains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// pkgDockerfile returns the Dockerfile's instructions, continuation lines
// joined, comments dropped.
func pkgDockerfile(t *testing.T) [][2]string {
	var out [][2]string
	var cur string
	for _, line := range strings.Split(string(pkgRead(t, "Dockerfile")), "\n") {
		if trimmed := strings.TrimSpace(line); cur == "" && (trimmed == "" || strings.HasPrefix(trimmed, "#")) {
			continue
		}
		if strings.HasSuffix(line, `\`) {
			cur += strings.TrimSuffix(line, `\`) + " "
			continue
		}
		op, args, _ := strings.Cut(strings.TrimSpace(cur+line), " ")
		out, cur = append(out, [2]string{strings.ToUpper(op), strings.Join(strings.Fields(args), " ")}), ""
	}
	return out
}

func TestDockerfile(t *testing.T) {
	var froms []string
	var build, runtime []string // RUN lines per stage
	var user, entrypoint string
	for _, ins := range pkgDockerfile(t) {
		switch ins[0] {
		case "FROM":
			froms = append(froms, ins[1])
		case "RUN":
			if len(froms) == 1 {
				build = append(build, ins[1])
			} else {
				runtime = append(runtime, ins[1])
			}
		case "USER":
			user = ins[1]
		case "ENTRYPOINT":
			entrypoint = ins[1]
		}
	}
	goVersion := regexp.MustCompile(`(?m)^go (\d+\.\d+)`).FindSubmatch(pkgRead(t, "go.mod"))
	if len(froms) != 2 || !strings.Contains(froms[0], "golang:"+string(goVersion[1])+"-") ||
		!strings.HasSuffix(froms[0], " AS build") || !strings.HasPrefix(froms[1], "alpine:3.22 ") {
		t.Errorf("stages = %q: want golang:%s-* AS build, then alpine:3.22 (git 2.49)", froms, goVersion[1])
	}
	all := strings.Join(build, "\n")
	for _, want := range []string{"CGO_ENABLED=0", "go build", "-X github.com/ocr-ci/ocr/runner.Version=", "./cmd/ocr"} {
		if !strings.Contains(all, want) {
			t.Errorf("build stage lacks %q", want)
		}
	}
	all = strings.Join(runtime, "\n")
	for _, want := range []string{"apk add --no-cache git ca-certificates", "git config --system --add safe.directory '*'", "2.41"} {
		if !strings.Contains(all, want) {
			t.Errorf("runtime stage lacks %q", want)
		}
	}
	if user == "" || strings.HasPrefix(user, "0") || strings.HasPrefix(user, "root") {
		t.Errorf("USER = %q, want a non-root user", user)
	}
	var ep []string
	if err := json.Unmarshal([]byte(entrypoint), &ep); err != nil || !reflect.DeepEqual(ep, []string{"ocr"}) {
		t.Errorf(`ENTRYPOINT = %s, want ["ocr"]`, entrypoint)
	}
}

// TestDockerignoreKeepsSources: the build context must keep every Go file
// and everything in a package directory (embedded prompts, tools.json).
func TestDockerignoreKeepsSources(t *testing.T) {
	var patterns []string
	for _, l := range strings.Split(string(pkgRead(t, ".dockerignore")), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			patterns = append(patterns, strings.TrimPrefix(l, "/"))
		}
	}
	ignored := func(p string) bool {
		for ; p != "."; p = filepath.Dir(p) {
			for _, pat := range patterns {
				if ok, _ := filepath.Match(pat, p); ok {
					return true
				}
			}
		}
		return false
	}
	for _, p := range []string{"go.mod", "go.sum", "cmd/ocr/main.go", "internal/agent", "tools", "internal/rules"} {
		if ignored(p) {
			t.Errorf(".dockerignore drops %s, which the build needs", p)
		}
	}
	if !ignored(".git") {
		t.Error(".dockerignore should drop .git")
	}
}

// pkgFlagField maps every flag of `ocr review` to the OCR_* variable of the
// Config field it sets, by the field's address.
func pkgFlagField() map[string]string {
	var cfg Config
	fs := flag.NewFlagSet("review", flag.ContinueOnError)
	cfg.bind(fs)
	byAddr := map[uintptr]string{}
	rv := reflect.ValueOf(&cfg).Elem()
	for i := range rv.NumField() {
		byAddr[rv.Field(i).Addr().Pointer()] = "OCR_" + rv.Type().Field(i).Tag.Get("envconfig")
	}
	out := map[string]string{}
	fs.VisitAll(func(f *flag.Flag) {
		addr := reflect.ValueOf(f.Value).Pointer()
		if l, ok := f.Value.(*listFlag); ok {
			addr = reflect.ValueOf(l.vals).Pointer()
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
	for code := ExitOK; code <= ExitIncomplete; code++ {
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
		os.Unsetenv(k)
	}
}

// pkgEnvCommand runs `ocr env` in-process and returns its output.
func pkgEnvCommand(t *testing.T) string {
	t.Helper()
	var out, errb bytes.Buffer
	c := &Command{Stdout: &out, Stderr: &errb}
	if code := c.Main(context.Background(), []string{"ocr", "env"}); code != ExitOK {
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
