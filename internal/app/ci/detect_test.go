package ci

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/review/reportspec"
)

func eventFile(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "event.json")
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

const prEvent = `{"pull_request":{"number":7,
  "base":{"sha":"b000000000000000000000000000000000000000","repo":{"full_name":"o/r"}},
  "head":{"sha":"h000000000000000000000000000000000000000","repo":{"full_name":"%s"}}},
  "repository":{"full_name":"o/r","default_branch":"main"}}`

func TestDetectGitHub(t *testing.T) {
	cases := []struct {
		name, event, payload, sha string
		want                      Context
	}{
		{"pull_request", "pull_request", sprintf(prEvent, "o/r"), "m000000000000000000000000000000000000000", Context{
			From: "b000000000000000000000000000000000000000", To: "h000000000000000000000000000000000000000",
			HeadSHA: "h000000000000000000000000000000000000000", PR: 7, ConfigRef: "b000000000000000000000000000000000000000",
			Reports: specs("github-review", "github-annotations", "github-summary", "sarif=ocr.sarif")}},
		{"fork", "pull_request", sprintf(prEvent, "someone/r"), "m000000000000000000000000000000000000000", Context{
			From: "b000000000000000000000000000000000000000", To: "h000000000000000000000000000000000000000",
			HeadSHA: "h000000000000000000000000000000000000000", PR: 7, ReadOnly: true, UntrustedHead: "fork pull request under pull_request: head from someone/r", ConfigRef: "b000000000000000000000000000000000000000",
			Reports: specs("github-review", "github-annotations", "github-summary", "sarif=ocr.sarif")}},
		{"pull_request_target from a fork is not read-only", "pull_request_target", sprintf(prEvent, "someone/r"), "b000000000000000000000000000000000000000", Context{
			From: "b000000000000000000000000000000000000000", To: "h000000000000000000000000000000000000000",
			HeadSHA: "h000000000000000000000000000000000000000", PR: 7, UntrustedHead: "fork pull request under pull_request_target: head from someone/r", ConfigRef: "b000000000000000000000000000000000000000",
			Reports: specs("github-review", "github-annotations", "github-summary", "sarif=ocr.sarif")}},
		{"push", "push", `{"before":"a1","after":"a2","repository":{"default_branch":"main"}}`, "a2", Context{
			From: "a1", To: "a2", ConfigRef: "a1",
			Reports: specs("github-annotations", "github-summary", "sarif=ocr.sarif")}},
		{"new branch", "push", `{"before":"` + zeroSHA + `","after":"a2","repository":{"default_branch":"main"}}`, "a2", Context{
			From: "origin/main", To: "a2", ConfigRef: "origin/main", FromIsGuess: true,
			Reports: specs("github-annotations", "github-summary", "sarif=ocr.sarif")}},
		{"workflow_dispatch", "workflow_dispatch", `{}`, "c1", Context{Commit: "c1",
			Reports: specs("github-annotations", "github-summary", "sarif=ocr.sarif")}},
		{"pull_request_review_comment", "pull_request_review_comment", sprintf(prEvent, "someone/r"), "m000000000000000000000000000000000000000", Context{
			From: "b000000000000000000000000000000000000000", To: "h000000000000000000000000000000000000000",
			HeadSHA: "h000000000000000000000000000000000000000", PR: 7, ConfigRef: "b000000000000000000000000000000000000000",
			UntrustedHead: "fork pull request under pull_request_review_comment: head from someone/r",
			Reports:       specs("github-review", "github-annotations", "github-summary", "sarif=ocr.sarif")}},
		{"issue_comment on a PR", "issue_comment", `{"issue":{"number":9,"pull_request":{"url":"x"}}}`, "c1", Context{PR: 9, NeedPR: true,
			Reports: specs("github-review", "github-annotations", "github-summary", "sarif=ocr.sarif")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Detect(Env{GitHub: GitHubEnv{Actions: true, EventName: tc.event, EventPath: eventFile(t, tc.payload), Repository: "o/r", SHA: tc.sha}})
			if err != nil {
				t.Fatal(err)
			}
			tc.want.Platform, tc.want.Event, tc.want.Owner, tc.want.Name = PlatformGitHub, tc.event, "o", "r"
			got.Why = ""
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got  %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

func TestDetectGitHubBadPayload(t *testing.T) {
	_, err := Detect(Env{GitHub: GitHubEnv{Actions: true, EventName: "push", EventPath: eventFile(t, "{not json")}})
	if err == nil {
		t.Fatal("want an error for a malformed event payload")
	}
}

func TestDetectGitLab(t *testing.T) {
	mr := GitLabEnv{CI: true, PipelineSource: "merge_request_event", MRIID: 3, DiffBaseSHA: "base", CommitSHA: "merge", SourceBranchSHA: "head"}
	got := detect2(t, Env{GitLab: mr})
	if got.From != "base" || got.To != "head" || got.HeadSHA != "head" || got.PR != 3 || got.ConfigRef != "base" {
		t.Errorf("merged-results MR: got %+v: the head must be the source branch SHA, never CI_COMMIT_SHA", got)
	}
	mr.SourceBranchSHA = ""
	if got := detect2(t, Env{GitLab: mr}); got.To != "merge" {
		t.Errorf("plain MR pipeline: got head %q, want CI_COMMIT_SHA", got.To)
	}
	branch := detect2(t, Env{GitLab: GitLabEnv{CI: true, BeforeSHA: "b", CommitSHA: "c"}})
	if branch.From != "b" || branch.To != "c" || branch.PR != 0 {
		t.Errorf("branch pipeline: got %+v", branch)
	}
	first := detect2(t, Env{GitLab: GitLabEnv{CI: true, BeforeSHA: zeroSHA, CommitSHA: "c"}})
	if first.Commit != "c" || first.From != "" {
		t.Errorf("first pipeline of a branch: got %+v", first)
	}
}

func detect2(t *testing.T, e Env) Context {
	t.Helper()
	c, err := Detect(e)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }

// TestDetectWorkflowRunOfAPullRequest: a workflow_run whose triggering run
// belongs to a pull request is untrusted even when pull_requests is empty
// (always so for a fork): the head commit is reviewed, and configuration is
// read from the default branch this workflow runs at (GITHUB_SHA), never
// from the head (config ref "" means the reviewed commit).
func TestDetectWorkflowRunOfAPullRequest(t *testing.T) {
	const head, main = "h000000000000000000000000000000000000000", "d000000000000000000000000000000000000000"
	run := func(event, headRepo string) string {
		return sprintf(`{"workflow_run":{"head_sha":%q,"event":%q,"pull_requests":[],
		  "head_repository":{"full_name":%q},"repository":{"full_name":"o/r"}},
		  "repository":{"full_name":"o/r","default_branch":"main"}}`, head, event, headRepo)
	}
	for _, c := range []struct {
		name, payload, sha, want string
	}{
		{"fork pull_request", run("pull_request", "mallory/r"), main, main},
		{"fork pull_request_target", run("pull_request_target", "mallory/r"), main, main},
		{"same-repository pull_request, no PR listed", run("pull_request", "o/r"), main, main},
		{"head from another repository", run("push", "mallory/r"), main, main},
		{"head repository differs only by case is the same", run("push", "O/R"), main, ""},
		{"no GITHUB_SHA: the default branch", run("pull_request", "mallory/r"), "", "origin/main"},
		{"push in the repository stays trusted", run("push", "o/r"), main, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := Detect(Env{GitHub: GitHubEnv{Actions: true, EventName: "workflow_run", EventPath: eventFile(t, c.payload), Repository: "o/r", SHA: c.sha}})
			if err != nil {
				t.Fatal(err)
			}
			if got.Commit != head || got.ConfigRef != c.want {
				t.Errorf("commit %q, config ref %q; want %q, %q (%s)", got.Commit, got.ConfigRef, head, c.want, got.Why)
			}
		})
	}
	noRef := sprintf(`{"workflow_run":{"head_sha":%q,"event":"pull_request","pull_requests":[]}}`, head)
	if _, err := Detect(Env{GitHub: GitHubEnv{Actions: true, EventName: "workflow_run", EventPath: eventFile(t, noRef), Repository: "o/r"}}); err == nil {
		t.Error("an untrusted workflow_run with no trusted ref was accepted")
	}
}

// specs reads report specs as ocr env prints them.
func specs(ss ...string) []reportspec.Spec {
	out := make([]reportspec.Spec, len(ss))
	for i, s := range ss {
		kind, path, _ := strings.Cut(s, "=")
		out[i] = reportspec.Spec{Kind: reportspec.Kind(kind), Path: path}
	}
	return out
}
