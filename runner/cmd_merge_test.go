package runner

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/reporters"
)

// mergeFindings are the findings the scripted model makes on shardTree, in three
// directories.
var mergeFindings = []scanFinding{
	{path: "pkg01/f0.go", code: "func F0() {}"},
	{path: "pkg07/f1.go", code: "func F1() {}"},
	{path: "api/Widget.java", code: "class Widget {}"},
}

// sarifResults is what two SARIF logs must agree on: one line per result
// (rule, fingerprint, place), sorted.
func sarifResults(t *testing.T, file string) (results []string, runs int, category string) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var log struct {
		Runs []struct {
			AutomationDetails struct{ ID string } `json:"automationDetails"`
			Results           []struct {
				RuleID              string            `json:"ruleId"`
				PartialFingerprints map[string]string `json:"partialFingerprints"`
				Locations           []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }    `json:"artifactLocation"`
						Region           struct{ StartLine int } `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(data, &log); err != nil {
		t.Fatal(err)
	}
	for _, run := range log.Runs {
		category = run.AutomationDetails.ID
		for _, r := range run.Results {
			loc := r.Locations[0].PhysicalLocation
			results = append(results, fmt.Sprintf("%s %s %s:%d", r.RuleID, r.PartialFingerprints["ocr/v1"], loc.ArtifactLocation.URI, loc.Region.StartLine))
		}
	}
	slices.Sort(results)
	return results, len(log.Runs), category
}

// TestScanShardsMergeAsOneRun: an unsharded scan and three shards merged
// give the same findings, the same SARIF results in one run of one
// category, one Code Quality file, and the same files with their reasons.
func TestScanShardsMergeAsOneRun(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	shardTree(r.write)
	r.commit("root")
	env := testEnv{}
	env.useLLM(scanModel(t, mergeFindings))
	dir := t.TempDir()
	out := func(name string) string { return filepath.Join(dir, name) }
	scan := func(name string, args ...string) {
		args = append([]string{"scan", "--repo", r.dir, "--no-filter", "--report", "json=" + out(name+".json"),
			"--report", "sarif=" + out(name+".sarif")}, args...)
		if code, _, errs := env.run(t, args...); code != reporters.ExitOK {
			t.Fatalf("%v: exit %d\n%s", args, code, errs)
		}
	}
	scan("whole")
	for i := 1; i <= 3; i++ {
		scan(fmt.Sprintf("shard%d", i), "--shard", fmt.Sprintf("%d/3", i))
		if _, _, cat := sarifResults(t, out(fmt.Sprintf("shard%d.sarif", i))); cat != fmt.Sprintf("ocr-scan/shard-%d-of-3/", i) {
			t.Errorf("shard %d's own SARIF has category %q: uploads would replace each other", i, cat)
		}
	}
	code, _, errs := env.run(t, "merge", "--report", "sarif="+out("merged.sarif"), "--report", "codequality="+out("merged.cq.json"),
		"--report", "json="+out("merged.json"), "--fail-on", "high", out("shard3.json"), out("shard1.json"), out("shard2.json"))
	if code != reporters.ExitFindings {
		t.Fatalf("merge: exit %d, want 1 (--fail-on high on the whole)\n%s", code, errs)
	}
	want, _, _ := sarifResults(t, out("whole.sarif"))
	got, runs, cat := sarifResults(t, out("merged.sarif"))
	if !slices.Equal(got, want) || len(want) != len(mergeFindings) || runs != 1 || cat != "ocr-scan/" {
		t.Errorf("merged SARIF: %d run(s), category %q, results\n%q\nwant one run, ocr-scan/, results\n%q", runs, cat, got, want)
	}
	data, _ := os.ReadFile(out("merged.sarif"))
	validateSchema(t, "sarif/testdata/sarif-schema-2.1.0.json", data)
	cq, _ := os.ReadFile(out("merged.cq.json"))
	validateSchema(t, "codequality/testdata/codequality-schema.json", cq)
	var issues []json.RawMessage
	if err := json.Unmarshal(cq, &issues); err != nil || len(issues) != len(mergeFindings) {
		t.Errorf("Code Quality: %d issues, %v", len(issues), err)
	}
	var whole, merged struct {
		Status string
		Files  []json.RawMessage
		Shard  *struct{ Index, Total int }
	}
	wj, _ := os.ReadFile(out("whole.json"))
	mj, _ := os.ReadFile(out("merged.json"))
	if json.Unmarshal(wj, &whole) != nil || json.Unmarshal(mj, &merged) != nil {
		t.Fatal("JSON reports do not decode")
	}
	if whole.Status != merged.Status || !slices.EqualFunc(whole.Files, merged.Files, func(a, b json.RawMessage) bool { return string(a) == string(b) }) || merged.Shard != nil {
		t.Errorf("merged JSON: status %s (whole %s), %d files (whole %d), shard %v", merged.Status, whole.Status, len(merged.Files), len(whole.Files), merged.Shard)
	}
}

// TestMergeRefusesAndNamesMissingShards: reports of different commits are
// refused with nothing written; a missing shard is named, the reports are
// written with what was given, and the exit is 3 even with --allow-partial.
func TestMergeRefusesAndNamesMissingShards(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	shardTree(r.write)
	r.commit("one")
	env := testEnv{}
	env.useLLM(scanModel(t, mergeFindings))
	dir := t.TempDir()
	out := func(name string) string { return filepath.Join(dir, name) }
	for i := 1; i <= 3; i++ {
		if i == 3 {
			r.write("pkg01/f0.go", "package pkg01\n\nfunc F0() { changed() }\n")
			r.commit("two")
		}
		if code, _, errs := env.run(t, "scan", "--repo", r.dir, "--no-filter", "--shard", fmt.Sprintf("%d/3", i), "--report", fmt.Sprintf("json=%s", out(fmt.Sprint(i, ".json")))); code != reporters.ExitOK {
			t.Fatalf("shard %d: exit %d\n%s", i, code, errs)
		}
	}
	code, _, errs := env.run(t, "merge", "--report", "sarif="+out("m.sarif"), out("1.json"), out("3.json"))
	if code != reporters.ExitUsage || !strings.Contains(errs, "different commits") {
		t.Errorf("different commits: exit %d, %q", code, errs)
	}
	if _, err := os.Stat(out("m.sarif")); err == nil {
		t.Error("a refused merge wrote a report")
	}
	code, _, errs = env.run(t, "merge", "--allow-partial", "--report", "sarif="+out("m.sarif"), "--report", "json="+out("m.json"), out("1.json"), out("2.json"))
	if code != reporters.ExitIncomplete || !strings.Contains(errs, "shard 3 of 3 is missing") {
		t.Errorf("missing shard: exit %d, want 3 naming shard 3\n%s", code, errs)
	}
	if data, err := os.ReadFile(out("m.json")); err != nil || !strings.Contains(string(data), `"status": "partial"`) || !strings.Contains(string(data), "shard 3 of 3 is missing") {
		t.Errorf("the merged JSON does not say it is partial and why: %v\n%.400s", err, data)
	}
	for _, args := range [][]string{{}, {out("nope.json")}, {out("m.sarif")}, {"--report", "github-review", out("1.json")}} {
		if code, _, errs := env.run(t, append([]string{"merge"}, args...)...); code != reporters.ExitUsage {
			t.Errorf("merge %v: exit %d, want 2\n%s", args, code, errs)
		}
	}
}

func TestMergeHelp(t *testing.T) {
	t.Parallel()
	code, out, _ := testEnv{}.run(t, "merge", "--help")
	if code != reporters.ExitOK || !strings.Contains(out, "Usage: ocr merge") || !strings.Contains(out, "--fail-on") {
		t.Errorf("merge --help: exit %d\n%s", code, out)
	}
}
