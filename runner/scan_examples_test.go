package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/ocr-ci/ocr/reporters"
)

// exampleArgs splits one ocr command line of an example, expanding vars
// and the globs the shell would, in the directory dir.
func exampleArgs(t *testing.T, dir, line string, vars map[string]string) []string {
	t.Helper()
	for k, v := range vars {
		line = strings.ReplaceAll(line, k, v)
	}
	fields := strings.Fields(line)
	if len(fields) == 0 || fields[0] != "ocr" {
		t.Fatalf("not an ocr command: %q", line)
	}
	var args []string
	for _, f := range fields[1:] {
		if strings.Contains(f, "*") {
			m, _ := filepath.Glob(filepath.Join(dir, f))
			if len(m) == 0 {
				t.Fatalf("%s matches nothing", f)
			}
			for _, p := range m {
				rel, err := filepath.Rel(dir, p)
				must(t, err)
				args = append(args, rel)
			}
			continue
		}
		args = append(args, f)
	}
	return args
}

// runExample runs one command of an example in-process; it fails unless
// the exit code is want.
func runExample(t *testing.T, env testEnv, args []string, want int) {
	t.Helper()
	if code, _, errs := env.run(t, args...); code != want {
		t.Fatalf("ocr %s: exit %d, want %d\n%s", strings.Join(args, " "), code, want, errs)
	}
}

// TestScanShardExamplesRun runs the commands of the two sharded-scan
// examples as their CI would, in a real repository with the scripted
// model: the GitHub matrix with its artifacts and merge job, and the
// GitLab parallel jobs and merge job; the merged reports are valid.
func TestScanShardExamplesRun(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	shardTree(r.write)
	r.commit("root")
	workIn(t, r.dir)
	srv := scanModel(t, mergeFindings)

	var gh struct {
		Jobs map[string]struct {
			Strategy struct{ Matrix struct{ Shard []string } }
			Steps    []struct{ Run string }
		}
	}
	if err := yaml.Unmarshal(pkgReadAbs(t, modulePath("docs", "examples", "github-scan-shards.yml")), &gh); err != nil {
		t.Fatal(err)
	}
	env := testEnv{"GITHUB_STEP_SUMMARY": filepath.Join(r.dir, "summary.md")}
	env.useLLM(srv)
	for _, s := range gh.Jobs["scan"].Strategy.Matrix.Shard {
		for _, st := range gh.Jobs["scan"].Steps {
			if st.Run != "" {
				runExample(t, env, exampleArgs(t, r.dir, st.Run, map[string]string{"${{ matrix.shard }}": s}), reporters.ExitOK)
			}
		}
		// upload-artifact then download-artifact: shards/ocr-shard-N/ocr-shard.json
		must(t, os.MkdirAll(filepath.Join(r.dir, "shards", "ocr-shard-"+s), 0o755))
		must(t, os.Rename(filepath.Join(r.dir, "ocr-shard.json"), filepath.Join(r.dir, "shards", "ocr-shard-"+s, "ocr-shard.json")))
	}
	for _, st := range gh.Jobs["merge"].Steps {
		if st.Run != "" {
			runExample(t, env, exampleArgs(t, r.dir, st.Run, nil), reporters.ExitOK)
		}
	}
	results, runs, cat := sarifResults(t, filepath.Join(r.dir, "ocr-scan.sarif"))
	if len(results) != len(mergeFindings) || runs != 1 || cat != "ocr-scan/" {
		t.Errorf("GitHub example: %d results in %d run(s), category %q", len(results), runs, cat)
	}
	validateSchema(t, "sarif/testdata/sarif-schema-2.1.0.json", pkgReadAbs(t, filepath.Join(r.dir, "ocr-scan.sarif")))
	if s := string(pkgReadAbs(t, filepath.Join(r.dir, "summary.md"))); !strings.Contains(s, "ocr") {
		t.Errorf("GitHub example: the step summary is empty")
	}

	type glJob struct {
		Parallel int
		Script   []string
	}
	var gl struct {
		Scan  glJob `yaml:"ocr-scan"`
		Merge glJob `yaml:"ocr-merge"`
	}
	if err := yaml.Unmarshal(pkgReadAbs(t, modulePath("docs", "examples", "gitlab", "scan-shards.yml")), &gl); err != nil {
		t.Fatal(err)
	}
	n := gl.Scan.Parallel
	for i := 1; i <= n; i++ {
		node := testEnv{"GITLAB_CI": "true", "CI_NODE_INDEX": string(rune('0' + i)), "CI_NODE_TOTAL": string(rune('0' + n))}
		node.useLLM(srv)
		for _, line := range gl.Scan.Script {
			runExample(t, node, exampleArgs(t, r.dir, line, map[string]string{"$CI_NODE_INDEX": node["CI_NODE_INDEX"]}), reporters.ExitOK)
		}
	}
	for _, line := range gl.Merge.Script {
		runExample(t, testEnv{"GITLAB_CI": "true"}, exampleArgs(t, r.dir, line, nil), reporters.ExitOK)
	}
	validateSchema(t, "codequality/testdata/codequality-schema.json", pkgReadAbs(t, filepath.Join(r.dir, "gl-code-quality.json")))
	if n != 4 || strings.Count(string(pkgReadAbs(t, filepath.Join(r.dir, "gl-code-quality.json"))), `"fingerprint"`) != len(mergeFindings) {
		t.Errorf("GitLab example: parallel %d, Code Quality issues != %d", n, len(mergeFindings))
	}
}

func pkgReadAbs(t *testing.T, p string) []byte {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
