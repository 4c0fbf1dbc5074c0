package runner

// Checks that action.yml, gitlab/ocr.yml, the Dockerfile and the setup docs
// say what the code does: every variable they set is one ocr reads, every
// default loads, every output is one ocr writes.

import (
	"encoding/json"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/ocr-ci/ocr/internal/app/config"
	"github.com/ocr-ci/ocr/reporters"
	"github.com/ocr-ci/ocr/review/reportspec"
)

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
			Regex   string   `yaml:"regex"`
		} `yaml:"inputs"`
	} `yaml:"spec"`
}

var pkgInputUse = regexp.MustCompile(`\$\[\[ inputs\.([a-z0-9-]+) \]\]`)

// pkgGitLabTemplate is the CI/CD component, also usable as a remote template.
const pkgGitLabTemplate = "gitlab/templates/review.yml"

// pkgGitLab parses the component as its two documents, the second with
// every $[[ inputs.X ]] replaced by the input's default.
func pkgGitLab(t *testing.T) (pkgGitLabSpec, map[string]pkgGitLabJob, map[string]bool) {
	t.Helper()
	head, body, ok := strings.Cut(string(pkgRead(t, pkgGitLabTemplate)), "\n---\n")
	if !ok {
		t.Fatal(pkgGitLabTemplate + ": want two YAML documents, spec and jobs, separated by ---")
	}
	var spec pkgGitLabSpec
	if err := yaml.Unmarshal([]byte(head), &spec); err != nil {
		t.Fatalf("%s spec: %v", pkgGitLabTemplate, err)
	}
	used := map[string]bool{}
	body = pkgInputUse.ReplaceAllStringFunc(body, func(s string) string {
		name := pkgInputUse.FindStringSubmatch(s)[1]
		used[name] = true
		in, ok := spec.Spec.Inputs[name]
		if !ok {
			t.Errorf("%s uses undeclared input %s", pkgGitLabTemplate, name)
		}
		b, _ := json.Marshal(in.Default)
		return strings.Trim(string(b), `"`)
	})
	var jobs map[string]pkgGitLabJob
	if err := yaml.Unmarshal([]byte(body), &jobs); err != nil {
		t.Fatalf("%s jobs: %v", pkgGitLabTemplate, err)
	}
	return spec, jobs, used
}

func TestGitLabTemplate(t *testing.T) {
	t.Parallel()
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
		if in.Regex != "" && !regexp.MustCompile(in.Regex).MatchString(str) {
			t.Errorf("input %s: default %q does not match its regex %s", name, str, in.Regex)
		}
	}
	for _, v := range []string{"v1", "v1.2.3", "v2.0.0-rc.1"} {
		if !regexp.MustCompile(spec.Spec.Inputs["version"].Regex).MatchString(v) {
			t.Errorf("input version refuses the release %s", v)
		}
	}
	for _, v := range []string{"latest", "1.2.3", "main"} {
		if regexp.MustCompile(spec.Spec.Inputs["version"].Regex).MatchString(v) {
			t.Errorf("input version accepts %q, which is no image tag of a release", v)
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
	if job.Image.Name != "ghcr.io/ocr-ci/ocr:v1" {
		t.Errorf("image = %q with the defaults, want the published ghcr.io/ocr-ci/ocr at the version input", job.Image.Name)
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
		setVar(t, k, v)
	}
	cfg, err := config.Load(envOf(t).lookup)
	if err != nil {
		t.Fatalf("template defaults: %v", err)
	}
	specs, err := reportspec.ParseAll(cfg.Reports...)
	if err != nil {
		t.Fatal(err)
	}
	paths := map[reportspec.Kind]string{}
	for _, s := range specs {
		paths[s.Kind] = s.Path
	}
	cq := job.Artifacts.Reports["codequality"]
	if _, post := paths[reportspec.KindGitLabDiscussion]; !post || cq == "" || paths[reportspec.KindCodeQuality] != cq {
		t.Errorf("reports %v: want gitlab-discussion and codequality=%q (the artifacts' report)", cfg.Reports, cq)
	}
	if p := paths[reportspec.KindSARIF]; p == "" || !pkgContains(job.Artifacts.Paths, p) || job.Artifacts.When != "always" {
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
