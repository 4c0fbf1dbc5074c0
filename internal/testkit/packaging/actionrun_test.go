package packaging

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// actionRun runs action.yml's composite steps the way GitHub's runner does,
// as far as action.yml needs: ${{ }} expressions over inputs, github,
// runner and earlier steps' outputs (operands, ||, and == / != with
// literals joined by && in if:); run steps with `bash --noprofile --norc
// -eo pipefail`, their env, $GITHUB_OUTPUT and $GITHUB_PATH. Of the
// third-party actions it plays actions/cache (a hit: the files of the
// key's entry restored into path) and sigstore/cosign-installer (the fake
// cosign put on $GITHUB_PATH); anything else it meets fails the test. The
// scripts it runs are the real ones: action.yml and action/install.sh.
type actionRun struct {
	t       *testing.T
	home    string
	ctx     map[string]string            // inputs.x, github.x, runner.x, steps.id.outputs.x
	env     map[string]string            // the job's environment
	paths   []string                     // $GITHUB_PATH entries, newest first
	cache   map[string]map[string][]byte // actions/cache key → file name → data
	cosign  string                       // what sigstore/cosign-installer installs
	keys    []string                     // cache keys asked for
	log     strings.Builder              // every step's output
	skipped []string                     // steps whose if: was false
}

type actionYAML struct {
	Inputs map[string]struct {
		Default *string `yaml:"default"`
	} `yaml:"inputs"`
	Runs struct {
		Steps []struct {
			ID   string            `yaml:"id"`
			If   string            `yaml:"if"`
			Uses string            `yaml:"uses"`
			With map[string]string `yaml:"with"`
			Dir  string            `yaml:"working-directory"`
			Env  map[string]string `yaml:"env"`
			Run  string            `yaml:"run"`
		} `yaml:"steps"`
	} `yaml:"runs"`
}

// newActionRun prepares a job on tg's runner: the action taken at ref,
// with inputs on top of action.yml's defaults. PATH is this machine's
// without any cosign, as on a hosted runner.
func newActionRun(t *testing.T, tg target, ref string, inputs map[string]string) *actionRun {
	home := t.TempDir()
	var path []string
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		if _, err := os.Stat(filepath.Join(d, "cosign")); err != nil {
			path = append(path, d)
		}
	}
	r := &actionRun{t: t, home: home, cache: map[string]map[string][]byte{}, ctx: map[string]string{
		"github.action_ref": ref, "github.action_repository": "ocr-ci/ocr", "github.action_path": root(),
		"github.token": "ghs_fake", "runner.temp": filepath.Join(home, "temp"), "runner.os": tg.runnerOS, "runner.arch": tg.runnerArch,
	}, env: map[string]string{
		"PATH": strings.Join(path, string(os.PathListSeparator)), "HOME": home, "RUNNER_TEMP": filepath.Join(home, "temp"),
		"RUNNER_OS": tg.runnerOS, "RUNNER_ARCH": tg.runnerArch, "GITHUB_ACTION_PATH": root(), "GITHUB_WORKSPACE": filepath.Join(home, "work"),
	}}
	for _, d := range []string{r.env["RUNNER_TEMP"], r.env["GITHUB_WORKSPACE"]} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	var a actionYAML
	if err := yaml.Unmarshal(read(t, "action.yml"), &a); err != nil {
		t.Fatal(err)
	}
	for name, in := range a.Inputs {
		if in.Default != nil {
			r.ctx["inputs."+name] = r.interp(*in.Default)
		}
	}
	for k, v := range inputs {
		if _, ok := a.Inputs[k]; !ok {
			t.Fatalf("action.yml has no input %s", k)
		}
		r.ctx["inputs."+k] = v
	}
	return r
}

// run runs every step; it returns the error of the first failing one.
func (r *actionRun) run() error {
	var a actionYAML
	if err := yaml.Unmarshal(read(r.t, "action.yml"), &a); err != nil {
		r.t.Fatal(err)
	}
	for i, s := range a.Runs.Steps {
		name := s.ID
		if name == "" {
			name = fmt.Sprintf("%s #%d", s.Uses, i)
		}
		if s.If != "" && !r.cond(s.If) {
			r.skipped = append(r.skipped, name)
			continue
		}
		var outputs map[string]string
		var err error
		if s.Uses != "" {
			err = r.uses(s.Uses, s.With)
		} else {
			outputs, err = r.script(s.Run, s.Env, r.interp(s.Dir))
		}
		for k, v := range outputs {
			r.ctx["steps."+s.ID+".outputs."+k] = v
		}
		if err != nil {
			return err
		}
	}
	return nil
}

var (
	exprRE    = regexp.MustCompile(`\$\{\{\s*(.*?)\s*\}\}`)
	operandRE = regexp.MustCompile(`^(inputs|github|runner|steps)\.[a-z0-9_.-]+$`)
	compareRE = regexp.MustCompile(`^(\S+) (==|!=) '([^']*)'$`)
)

// interp replaces every ${{ expression }} in s.
func (r *actionRun) interp(s string) string {
	return exprRE.ReplaceAllStringFunc(s, func(m string) string { return r.eval(exprRE.FindStringSubmatch(m)[1]) })
}

// eval evaluates operands joined by ||: the first non-empty one.
func (r *actionRun) eval(expr string) string {
	for _, op := range strings.Split(expr, " || ") {
		if v := r.operand(strings.TrimSpace(op)); v != "" {
			return v
		}
	}
	return ""
}

func (r *actionRun) operand(op string) string {
	if !operandRE.MatchString(op) {
		r.t.Fatalf("action.yml: the emulated runner does not know the expression %q", op)
	}
	v, ok := r.ctx[op]
	if !ok && !strings.HasPrefix(op, "steps.") { // an output never written is empty
		r.t.Fatalf("action.yml: %s is not defined", op)
	}
	return v
}

// cond evaluates an if: of comparisons joined by &&.
func (r *actionRun) cond(expr string) bool {
	for _, c := range strings.Split(exprRE.ReplaceAllString(expr, "$1"), " && ") {
		m := compareRE.FindStringSubmatch(strings.TrimSpace(c))
		if m == nil {
			r.t.Fatalf("action.yml: the emulated runner does not know the condition %q", c)
		}
		if (r.operand(m[1]) == m[3]) != (m[2] == "==") {
			return false
		}
	}
	return true
}

// uses plays the third-party actions action.yml calls.
func (r *actionRun) uses(uses string, with map[string]string) error {
	switch name, _, _ := strings.Cut(uses, "@"); name {
	case "actions/cache":
		key, dir := r.interp(with["key"]), r.interp(with["path"])
		r.keys = append(r.keys, key)
		for file, data := range r.cache[key] {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(filepath.Join(dir, file), data, 0o755); err != nil {
				return err
			}
		}
		return nil
	case "sigstore/cosign-installer":
		dir := filepath.Join(r.home, ".cosign") // the installer's default install-dir
		src, err := os.ReadFile(r.cosign)
		if err == nil {
			err = os.MkdirAll(dir, 0o755)
		}
		if err == nil {
			err = os.WriteFile(filepath.Join(dir, "cosign"), src, 0o755)
		}
		r.paths = append([]string{dir}, r.paths...)
		return err
	}
	r.t.Fatalf("action.yml: the emulated runner cannot run %s", uses)
	return nil
}

// script runs a run: step and returns what it wrote to $GITHUB_OUTPUT.
func (r *actionRun) script(run string, env map[string]string, dir string) (map[string]string, error) {
	files := r.t.TempDir()
	script, output, ghPath := filepath.Join(files, "step.sh"), filepath.Join(files, "output"), filepath.Join(files, "path")
	if err := os.WriteFile(script, []byte(r.interp(run)), 0o644); err != nil {
		r.t.Fatal(err)
	}
	c := exec.CommandContext(r.t.Context(), "bash", "--noprofile", "--norc", "-eo", "pipefail", script)
	c.Dir = r.env["GITHUB_WORKSPACE"]
	if dir != "" {
		c.Dir = dir
	}
	for k, v := range r.env {
		if k == "PATH" && len(r.paths) > 0 {
			v = strings.Join(r.paths, string(os.PathListSeparator)) + string(os.PathListSeparator) + v
		}
		c.Env = append(c.Env, k+"="+v)
	}
	for k, v := range env {
		c.Env = append(c.Env, k+"="+r.interp(v))
	}
	c.Env = append(c.Env, "GITHUB_OUTPUT="+output, "GITHUB_PATH="+ghPath)
	var out bytes.Buffer
	c.Stdout, c.Stderr = &out, &out
	err := c.Run()
	r.log.Write(out.Bytes())
	for _, p := range lines(ghPath) {
		r.paths = append([]string{p}, r.paths...)
	}
	outputs := map[string]string{}
	for _, l := range lines(output) {
		k, v, _ := strings.Cut(l, "=")
		outputs[k] = v
	}
	return outputs, err
}

// lines returns a file's lines; none when it does not exist.
func lines(path string) []string {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer func() { _ = f.Close() }() // read-only
	var out []string
	for sc := bufio.NewScanner(f); sc.Scan(); {
		out = append(out, sc.Text())
	}
	return out
}
