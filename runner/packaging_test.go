package runner

// Checks that action.yml, gitlab/ocr.yml, the Dockerfile and the setup docs
// say what the code does: every variable they set is one ocr reads, every
// default loads, every output is one ocr writes.

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/ocr-ci/ocr/internal/app/ci"
	"github.com/ocr-ci/ocr/internal/app/config"
	"github.com/ocr-ci/ocr/reporters"
	"github.com/ocr-ci/ocr/reporters/github"
	"github.com/ocr-ci/ocr/review"
)

// pkgSource says which loader reads a variable.
type pkgSource struct {
	spec func() any
}

// pkgVars maps every variable ocr reads to the loader that reads it.
func pkgVars(t *testing.T) map[string]pkgSource {
	t.Helper()
	vars := map[string]pkgSource{}
	for _, k := range config.Keys() {
		vars[k] = pkgSource{func() any { return "internal/app/config" }}
	}
	for _, k := range ci.Keys() {
		vars[k] = pkgSource{func() any { return "internal/app/ci" }}
	}
	return vars
}

// pkgRefusesEmpty reports whether the loaders fail on key set to "" (the
// OCR_* numbers, booleans and durations do; strings, lists and the LLM
// settings do not).
func pkgRefusesEmpty(t *testing.T, key string, _ pkgSource) bool {
	t.Helper()
	env := config.MapLookup(map[string]string{key: ""})
	_, err := config.Load(env)
	_, llmErr := config.LoadLLM(env)
	_, ciErr := ci.Load(env)
	return err != nil || llmErr != nil || ciErr != nil
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
		Value       string `yaml:"value"`
	} `yaml:"outputs"`
	Runs struct {
		Using string `yaml:"using"`
		Steps []struct {
			ID   string            `yaml:"id"`
			Uses string            `yaml:"uses"`
			Run  string            `yaml:"run"`
			Env  map[string]string `yaml:"env"`
		} `yaml:"steps"`
	} `yaml:"runs"`
}

// reviewEnv is the environment of the composite action's step that runs
// `ocr review` (id: review), without the install script's SETUP_OCR_* ones.
func (a pkgAction) reviewEnv(t *testing.T) map[string]string {
	t.Helper()
	for _, s := range a.Runs.Steps {
		if s.ID == "review" {
			env := map[string]string{}
			for k, v := range s.Env {
				if !strings.HasPrefix(k, "SETUP_OCR_") {
					env[k] = v
				}
			}
			return env
		}
	}
	t.Fatal("action.yml: no step with id review")
	return nil
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
	t.Parallel()
	a, vars := pkgLoadAction(t), pkgVars(t)
	want := []string{"allow-partial", "command", "concurrency", "exclude", "fail-on", "github-token", "language", "llm-model",
		"llm-token", "llm-url", "max-inline", "max-tokens-budget", "passes", "post-min-severity", "reports", "rule", "sarif-file", "shard", "verify-signature", "version"}
	if got := pkgKeys(a.Inputs); !reflect.DeepEqual(got, want) {
		t.Errorf("inputs = %v, want %v", got, want)
	}
	mapped := map[string]string{}
	for key, val := range a.reviewEnv(t) {
		m := pkgInputRef.FindStringSubmatch(val)
		switch {
		case m == nil:
			t.Errorf("review step env %s = %q: want ${{ inputs.NAME }}", key, val)
		case vars[key].spec == nil:
			t.Errorf("review step env %s: ocr reads no such variable", key)
		case key != pkgEnvName(m[1]):
			t.Errorf("review step env %s maps input %s: want %s", key, m[1], pkgEnvName(m[1]))
		default:
			mapped[m[1]] = key
		}
	}
	for name, in := range a.Inputs {
		key, ok := mapped[name]
		if !ok && name != "version" && name != "verify-signature" && name != "command" { // read by the install steps (action/install.sh), or the command to run
			t.Errorf("input %s is not passed to ocr", name)
		}
		if in.Description == "" || in.Required != (in.Default == nil) {
			t.Errorf("input %s: want a description, and a default exactly when not required", name)
		}
		if ok && pkgRefusesEmpty(t, key, vars[key]) && (in.Default == nil || *in.Default == "") {
			t.Errorf("input %s: %s refuses an empty value, so the input needs a non-empty default", name, key)
		}
	}
	for _, s := range a.Runs.Steps {
		if s.ID == "resolve" && s.Env["SETUP_OCR_VERSION"] != "${{ inputs.version }}" {
			t.Errorf("the resolve step gets SETUP_OCR_VERSION=%q, want the version input", s.Env["SETUP_OCR_VERSION"])
		}
	}
}

// pkgSetActionEnv sets the review step's env as the runner would with only the required
// inputs given: every other input at its default.
func pkgSetActionEnv(t *testing.T, a pkgAction) {
	given := map[string]string{"llm-url": "https://api.openai.com/v1", "llm-model": "m", "github-token": "ghs_secret"}
	for key, val := range a.reviewEnv(t) {
		m := pkgInputRef.FindStringSubmatch(val)
		if m == nil || a.Inputs[m[1]].Default == nil && given[m[1]] == "" {
			t.Fatalf("review step env %s = %q: not an input with a default", key, val)
		}
		v, ok := given[m[1]]
		if !ok {
			v = *a.Inputs[m[1]].Default
		}
		setVar(t, key, v)
	}
}

// TestActionDefaultsLoad sets every variable of the review step to its input's
// default and checks the configuration loads with the CLI's defaults.
func TestActionDefaultsLoad(t *testing.T) {
	t.Parallel()
	pkgSetActionEnv(t, pkgLoadAction(t))
	cfg, err := config.Load(envOf(t).lookup)
	if err != nil {
		t.Fatalf("action defaults: %v", err)
	}
	if _, err := config.LoadLLM(envOf(t).lookup); err != nil {
		t.Fatalf("action defaults: %v", err)
	}
	if _, err := reporters.ParseFailOn(cfg.FailOn); err != nil {
		t.Error(err)
	}
	var cli config.Config
	cli.Defaults()
	cfg.Defaults()
	if cfg.Concurrency != cli.Concurrency || cfg.MaxInline != cli.MaxInline || cfg.MaxTokensBudget != cli.MaxTokensBudget ||
		cfg.AllowPartial != cli.AllowPartial || cfg.SarifFile != cli.SarifFile || len(cfg.Reports)+len(cfg.Exclude) != 0 {
		t.Errorf("action defaults differ from the CLI's:\naction %+v\ncli    %+v", cfg, cli)
	}
}

// TestActionOutputsAreWhatOCRWrites runs the $GITHUB_OUTPUT reporter.
func TestActionOutputsAreWhatOCRWrites(t *testing.T) {
	t.Parallel()
	a := pkgLoadAction(t)
	var buf bytes.Buffer
	rv := &review.Review{Status: review.StatusComplete, Comments: []review.Comment{{Severity: review.SeverityHigh}}}
	if err := (&github.Output{W: &buf, SARIFPath: "ocr.sarif"}).Report(context.Background(), rv); err != nil {
		t.Fatal(err)
	}
	var written []string
	for _, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		name, _, _ := strings.Cut(line, "=")
		written = append(written, name)
	}
	// ocr, the binary's path, is the install or build step's output
	// (internal/testkit/packaging runs it); the others are the review's.
	written = append(written, "ocr")
	sort.Strings(written)
	if got := pkgKeys(a.Outputs); !reflect.DeepEqual(got, written) {
		t.Errorf("outputs = %v, ocr writes %v", got, written)
	}
	for name, o := range a.Outputs {
		if name == "ocr" {
			continue
		}
		if want := "${{ steps.review.outputs." + name + " }}"; o.Value != want {
			t.Errorf("output %s: value %q, want %q (what ocr writes to $GITHUB_OUTPUT in the review step)", name, o.Value, want)
		}
	}
	review := ""
	for _, s := range a.Runs.Steps {
		if s.ID == "review" {
			review = s.Run
		}
	}
	if a.Runs.Using != "composite" || !regexp.MustCompile(`(?m)^\s*(review\|""\) )?ocr review( ;;)?\s*$`).MatchString(review) {
		t.Errorf("runs: using %q, review step %q: want a composite action whose review step runs `ocr review`", a.Runs.Using, review)
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
