package runner

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/internal/testkit/fakes/githubfake"
	"github.com/ocr-ci/ocr/internal/testkit/llmtest"
	"github.com/ocr-ci/ocr/reporters"
)

// TestEnvListsWhatWouldStopAReview: in a GitLab merge request pipeline
// without a token that can post, ocr env names the merge request as one
// (!3), lists the missing token as a problem on one line and exits 2, as
// ocr review would stop; the JSON form says the same; with the token set
// there is no problem and it exits 0.
func TestEnvListsWhatWouldStopAReview(t *testing.T) {
	t.Parallel()
	r := dirtyRepo(t)
	head := r.git("rev-parse", "HEAD")
	srv := llmtest.New(t)
	env := testEnv{"GITLAB_CI": "true", "CI_PIPELINE_SOURCE": "merge_request_event", "CI_MERGE_REQUEST_IID": "3",
		"CI_MERGE_REQUEST_DIFF_BASE_SHA": head, "CI_COMMIT_SHA": head, "CI_JOB_TOKEN": "job"}
	env.useLLM(srv)
	code, out, errs := env.run(t, "env", "--repo", r.dir)
	if code != reporters.ExitUsage || strings.Count(out, "problem:") != 1 || !strings.Contains(out, "gitlab-discussion needs OCR_GITLAB_TOKEN") {
		t.Errorf("exit %d, want 2 and the one problem:\n%s%s", code, out, errs)
	}
	pkgWantLines(t, out, "merge request: !3")
	code, rerr := func() (int, string) { c, _, e := env.run(t, "review", "--repo", r.dir); return c, e }()
	if code != reporters.ExitUsage || !strings.Contains(rerr, "gitlab-discussion needs OCR_GITLAB_TOKEN") {
		t.Errorf("ocr review: exit %d, %q; env and review disagree", code, rerr)
	}
	code, out, _ = env.run(t, "env", "--repo", r.dir, "--format", "json")
	var doc struct {
		MergeRequest string   `json:"merge_request"`
		Problems     []string `json:"problems"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || code != reporters.ExitUsage || doc.MergeRequest != "!3" ||
		len(doc.Problems) != 1 || !strings.Contains(doc.Problems[0], "OCR_GITLAB_TOKEN") {
		t.Errorf("JSON: exit %d, %+v, %v:\n%s", code, doc, err, out)
	}
	env["OCR_GITLAB_TOKEN"] = "glpat-x"
	if code, out, errs := env.run(t, "env", "--repo", r.dir, "--format", "json"); code != reporters.ExitOK || !strings.Contains(out, `"problems": []`) {
		t.Errorf("with the token: exit %d\n%s%s", code, out, errs)
	}
	if code, _, errs := env.run(t, "env", "--repo", r.dir, "--format", "sarif"); code != reporters.ExitUsage || !strings.Contains(errs, "text or json") {
		t.Errorf("--format sarif: exit %d, %q", code, errs)
	}
}

// TestEnvShowsWhatRunsOnGitHubEvents: a fork's pull request says
// github-review posts nothing; a comment event says ocr answers it and
// shows the pull request's range read from the API, as a review would.
func TestEnvShowsWhatRunsOnGitHubEvents(t *testing.T) {
	t.Parallel()
	r := dirtyRepo(t)
	head := r.git("rev-parse", "HEAD")
	gh := githubfake.New(t, githubfake.Config{Base: head, Head: head, HeadRepo: "someone/r"})
	dir := t.TempDir()
	fork := `{"pull_request":{"number":7,"base":{"sha":"` + head + `","repo":{"full_name":"o/r"}},"head":{"sha":"` + head + `","repo":{"full_name":"someone/r"}}},"repository":{"full_name":"o/r"}}`
	comment := `{"action":"created","issue":{"number":7,"pull_request":{"url":"x"}},"comment":{"id":1,"body":"@ocr why?","user":{"login":"a","type":"User"},"author_association":"MEMBER"},"repository":{"full_name":"o/r","default_branch":"main"}}`
	base := testEnv{"GITHUB_ACTIONS": "true", "GITHUB_REPOSITORY": "o/r", "GITHUB_TOKEN": "tok", "GITHUB_API_URL": gh.URL,
		"GITHUB_STEP_SUMMARY": filepath.Join(dir, "summary.md")}
	base.useLLM(llmtest.New(t))
	for _, tc := range []struct {
		event, payload string
		want           []string
	}{
		{"pull_request", fork, []string{"github-review (read-only token: nothing is posted", "runs:          a review"}},
		{"issue_comment", comment, []string{"mode:          range", "range:         " + head + ".." + head, "runs:          the conversation"}},
	} {
		env := testEnv{"GITHUB_EVENT_NAME": tc.event, "GITHUB_EVENT_PATH": eventFile(t, tc.payload)}
		for k, v := range base {
			env[k] = v
		}
		code, out, errs := env.run(t, "env", "--repo", r.dir)
		for _, w := range tc.want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: ocr env (exit %d) lacks %q:\n%s%s", tc.event, code, w, out, errs)
			}
		}
	}
}
