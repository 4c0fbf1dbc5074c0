package runner

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"
	"text/template"

	goldenfile "github.com/ocr-ci/ocr/internal/testkit/golden"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// End-to-end scenarios: a real repository, the scripted LLM server, the
// strict platform fakes (internal/testkit/fakes) and a simulated CI environment;
// inputs and goldens live in ../testdata/e2e/<scenario>/.

// modulePath joins elem to the module's root, found from this file: the
// scenarios chdir into their workspace, so relative paths would break.
func modulePath(elem ...string) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(append([]string{filepath.Dir(file), ".."}, elem...)...)
}

// e2ePath is a file of a scenario in the module's top-level testdata.
func e2ePath(scenario, name string) string { return modulePath("testdata", "e2e", scenario, name) }

// setenv sets variables for the test.
func setenv(t *testing.T, kv map[string]string) {
	for k, v := range kv {
		setVar(t, k, v)
	}
}

// ghRunner is a simulated GitHub Actions step: its files in a temp dir.
type ghRunner struct {
	dir, summary, output, event string
}

// githubStep sets up the environment of a GitHub Actions step for repo r,
// with the event payload rendered from ../testdata/e2e/<scenario>/<event>.
// The working directory is the workspace, as in Actions.
func githubStep(t *testing.T, r *testRepo, apiURL, scenario, event, name string, data any) ghRunner {
	t.Helper()
	dir := t.TempDir()
	g := ghRunner{dir: dir, summary: filepath.Join(dir, "step_summary.md"), output: filepath.Join(dir, "output"),
		event: filepath.Join(dir, "event.json")}
	writeEvent(t, e2ePath(scenario, event), g.event, data)
	setenv(t, map[string]string{
		"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": name, "GITHUB_EVENT_PATH": g.event,
		"GITHUB_REPOSITORY": "o/r", "GITHUB_API_URL": apiURL, "GITHUB_SERVER_URL": "https://github.example",
		"GITHUB_WORKSPACE": r.dir, "RUNNER_TEMP": dir, "GITHUB_STEP_SUMMARY": g.summary, "GITHUB_OUTPUT": g.output,
		"GITHUB_TOKEN": "tok",
		// The scenarios' low findings are posted, as before the floor.
		"OCR_POST_MIN_SEVERITY": "low",
		// The synthetic merge commit: it exists nowhere, and using it is the
		// classic 422 "commitOID is not part of the pull request".
		"GITHUB_SHA": "5555555555555555555555555555555555555555",
	})
	workIn(t, r.dir)
	return g
}

// writeEvent renders the event template src with data into dst.
func writeEvent(t *testing.T, src, dst string, data any) {
	t.Helper()
	tmpl, err := template.ParseFiles(src)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := tmpl.Execute(&b, data); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
}

// readFile returns a file's content; a missing file fails the test.
func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v", err)
	}
	return string(b)
}

// outputs parses a $GITHUB_OUTPUT file (name=value lines; the last wins).
func outputs(t *testing.T, path string) map[string]string {
	t.Helper()
	out := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(readFile(t, path)))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), "=")
		if !ok || strings.Contains(k, "<<") {
			t.Errorf("$GITHUB_OUTPUT line %q is not name=value", sc.Text())
			continue
		}
		out[k] = v
	}
	return out
}

// golden compares got with ../testdata/e2e/<scenario>/<name>, rewriting it
// under -update.
func golden(t *testing.T, scenario, name, got string) {
	t.Helper()
	goldenfile.CheckString(t, e2ePath(scenario, name), got)
}

// validateSchema checks data against a JSON schema kept with the reporters
// tests (the official SARIF 2.1.0 schema, GitLab's Code Quality schema),
// schemaFile being its path under reporters/.
func validateSchema(t *testing.T, schemaFile string, data []byte) {
	t.Helper()
	schema, err := os.ReadFile(modulePath("reporters", schemaFile))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(schemaFile, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(schemaFile)
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	if err := s.Validate(inst); err != nil {
		t.Errorf("%s: schema validation failed: %v", schemaFile, err)
	}
}

// prDiff is the pull request's diff as GitHub shows it: merge-base..head.
func prDiff(r *testRepo, base, head string) string {
	mb := r.git("merge-base", base, head)
	return r.git("diff", "--no-color", "--no-ext-diff", "-U3", "--find-renames", mb, head) + "\n"
}

// commandLines returns stdout's workflow-command lines ("::name ...").
func commandLines(stdout string) []string {
	var out []string
	for _, l := range strings.Split(stdout, "\n") {
		if strings.HasPrefix(l, "::") {
			out = append(out, l)
		}
	}
	return out
}

func itoa(n int) string { return strconv.Itoa(n) }

func keys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// exportArtifact copies a generated report into $OCR_E2E_ARTIFACTS, when
// set, so that .ci/extra can validate real output with external tools
// (Microsoft's SARIF multitool).
func exportArtifact(t *testing.T, name string, data []byte) {
	t.Helper()
	dir := os.Getenv("OCR_E2E_ARTIFACTS")
	if dir == "" {
		return
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
		t.Fatal(err)
	}
}
