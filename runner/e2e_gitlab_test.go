package runner

import (
	"encoding/json"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ocr-ci/ocr/internal/testkit/fakes"
	"github.com/ocr-ci/ocr/internal/testkit/fakes/gitlabfake"
	"github.com/ocr-ci/ocr/internal/testkit/llmtest"
	"github.com/ocr-ci/ocr/reporters"
)

// TestE2EGitLabMergeRequest is a merge request pipeline: discussions with
// GitLab's positions (added → new_line, deleted → old_line, unchanged →
// both), a sticky summary note, and the Code Quality report.
func TestE2EGitLabMergeRequest(t *testing.T) {
	t.Parallel()
	p := newPRRepo(t)
	gl := gitlabfake.New(t, gitlabfake.Config{Diff: prDiff(p.testRepo, p.base, p.head), Base: p.root, Start: p.base, Head: p.head})
	mr := gl.MRPath()
	gl.Expect("GET "+mr+"/discussions", "GET "+mr+"/versions", "POST "+mr+"/discussions", "POST "+mr+"/notes")
	llm := llmtest.New(t, storeScript(1))
	gitlabJob(t, p, gl)
	useLLM(t, llm)

	code, out, errs := run(t, "review", "--repo", p.dir, "--no-filter", "--fail-on", "critical")
	if code != reporters.ExitFindings {
		t.Fatalf("exit %d, want %d\nstderr:\n%s", code, reporters.ExitFindings, errs)
	}
	if strings.Contains(out, "::") {
		t.Errorf("GitHub workflow commands in a GitLab job:\n%s", out)
	}
	checkPositions(t, p, gl.Posted())
	if s := gl.SummaryBody(); !strings.Contains(s, "**Status:** complete") || !strings.Contains(s, "| Critical | 1 |") {
		t.Errorf("summary note:\n%s", s)
	}
	checkCodeQuality(t, filepath.Join(p.dir, "gl-code-quality-report.json"))

	gl.ResetCalls()
	if code, _, errs := run(t, "review", "--repo", p.dir, "--no-filter"); code != reporters.ExitOK {
		t.Fatalf("re-run: exit %d\nstderr:\n%s", code, errs)
	}
	if calls := gl.Calls(); fakes.Writes(calls) != 0 {
		t.Errorf("a re-run with no change wrote to GitLab: %v", calls)
	}
	// The last state, pause and ignore and the poster read the merge
	// request through the run's one readonce transport: the discussions
	// once (it was three times), GET /user once.
	calls := gl.Calls()
	got := map[string]int{"GET " + mr + "/discussions": calls["GET "+mr+"/discussions"], gl.UserRoute(): calls[gl.UserRoute()]}
	if d := cmp.Diff(map[string]int{"GET " + mr + "/discussions": 1, gl.UserRoute(): 1}, got); d != "" {
		t.Errorf("API calls of the re-run (-want +got):\n%s\nall: %v", d, calls)
	}
}

// gitlabJob sets up the environment of a merge request pipeline job.
func gitlabJob(t *testing.T, p prRepo, gl *gitlabfake.Server) {
	setenv(t, map[string]string{
		"GITLAB_CI": "true", "CI_PIPELINE_SOURCE": "merge_request_event", "CI_MERGE_REQUEST_IID": "5",
		"CI_MERGE_REQUEST_DIFF_BASE_SHA": p.root, "CI_MERGE_REQUEST_TARGET_BRANCH_NAME": "main",
		"CI_COMMIT_SHA": p.head, "CI_PROJECT_ID": "42", "CI_PROJECT_DIR": p.dir, "CI_DEFAULT_BRANCH": "main",
		"CI_API_V4_URL": gl.APIURL(), "CI_SERVER_URL": gl.URL, "OCR_GITLAB_TOKEN": "tok",
		"CI_JOB_TOKEN":          "job-token-cannot-post",
		"OCR_POST_MIN_SEVERITY": "low", // the scenarios' low findings are posted, as before the floor
	})
	workIn(t, p.dir)
}

// checkPositions asserts each finding's GitLab position.
func checkPositions(t *testing.T, p prRepo, posted []gitlabfake.DiscussionRequest) {
	t.Helper()
	type pos struct{ Old, New int }
	got := map[pos]string{}
	for _, d := range posted {
		if d.Position == nil {
			t.Errorf("a general note instead of a diff discussion: %.200s", d.Body)
			continue
		}
		if d.Position.HeadSHA != p.head || d.Position.BaseSHA != p.root || d.Position.StartSHA != p.base {
			t.Errorf("position SHAs %+v", d.Position)
		}
		got[pos{deref(d.Position.OldLine), deref(d.Position.NewLine)}] = d.Body
	}
	for at, want := range map[pos]string{{0, 6}: "Dereferencing ptr", {5, 0}: "nil check was removed", {3, 3}: "still promises"} {
		if !strings.Contains(got[at], want) {
			t.Errorf("no discussion at old_line %d / new_line %d containing %q; got %v", at.Old, at.New, want, got)
		}
	}
	// Discussions are posted concurrently: order them by position.
	sort.Slice(posted, func(i, j int) bool { return posted[i].Body < posted[j].Body })
	js, _ := json.MarshalIndent(posted, "", "  ")
	r := strings.NewReplacer(p.root, "<merge-base>", p.base, "<target-tip>", p.head, "<head>")
	golden(t, "gitlab-mr", "discussions.golden", r.Replace(string(js))+"\n")
}

func deref(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}

// checkCodeQuality validates the Code Quality report and its locations.
func checkCodeQuality(t *testing.T, path string) {
	t.Helper()
	data := []byte(readFile(t, path))
	validateSchema(t, "codequality/testdata/codequality-schema.json", data)
	var issues []struct {
		Severity string `json:"severity"`
		Location struct {
			Path  string `json:"path"`
			Lines struct {
				Begin int `json:"begin"`
			} `json:"lines"`
		} `json:"location"`
	}
	if err := json.Unmarshal(data, &issues); err != nil {
		t.Fatal(err)
	}
	got := map[int]string{}
	for _, i := range issues {
		if i.Location.Path != "store/store.go" {
			t.Errorf("issue on %s", i.Location.Path)
		}
		got[i.Location.Lines.Begin] = i.Severity
	}
	// The deleted line has no place in the new file: line 1 of it.
	if len(issues) != 3 || got[6] != "blocker" || got[1] != "major" || got[3] != "minor" {
		t.Errorf("code quality issues by line %v, want blocker at 6, major at 1 (the deleted line), minor at 3", got)
	}
}

// TestE2EGitLabMergedResults: in a merged-results pipeline CI_COMMIT_SHA is
// a temporary merge commit of the source into the target; the review and
// every position use the merge request's head instead.
func TestE2EGitLabMergedResults(t *testing.T) {
	t.Parallel()
	p := newPRRepo(t)
	p.git("checkout", "-q", "--detach", p.base)
	p.git("merge", "-q", "--no-ff", "-m", "merge feature into main", p.head)
	merge := p.git("rev-parse", "HEAD")
	gl := gitlabfake.New(t, gitlabfake.Config{Diff: prDiff(p.testRepo, p.base, p.head), Base: p.root, Start: p.base, Head: p.head})
	llm := llmtest.New(t, storeScript(1))
	gitlabJob(t, p, gl)
	setenv(t, map[string]string{"CI_COMMIT_SHA": merge, "CI_MERGE_REQUEST_EVENT_TYPE": "merged_result",
		"CI_MERGE_REQUEST_SOURCE_BRANCH_SHA": p.head})
	useLLM(t, llm)
	code, _, errs := run(t, "review", "--repo", p.dir, "--no-filter")
	if code != reporters.ExitOK {
		t.Fatalf("exit %d\nstderr:\n%s", code, errs)
	}
	checkPositions(t, p, gl.Posted())
}
