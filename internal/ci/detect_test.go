package ci

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
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
			Reports: []string{"github-review", "github-annotations", "github-summary", "sarif=ocr.sarif"}}},
		{"fork", "pull_request", sprintf(prEvent, "someone/r"), "m000000000000000000000000000000000000000", Context{
			From: "b000000000000000000000000000000000000000", To: "h000000000000000000000000000000000000000",
			HeadSHA: "h000000000000000000000000000000000000000", PR: 7, Fork: true, ConfigRef: "b000000000000000000000000000000000000000",
			Reports: []string{"github-review", "github-annotations", "github-summary", "sarif=ocr.sarif"}}},
		{"pull_request_target from a fork is not read-only", "pull_request_target", sprintf(prEvent, "someone/r"), "b000000000000000000000000000000000000000", Context{
			From: "b000000000000000000000000000000000000000", To: "h000000000000000000000000000000000000000",
			HeadSHA: "h000000000000000000000000000000000000000", PR: 7, ConfigRef: "b000000000000000000000000000000000000000",
			Reports: []string{"github-review", "github-annotations", "github-summary", "sarif=ocr.sarif"}}},
		{"push", "push", `{"before":"a1","after":"a2","repository":{"default_branch":"main"}}`, "a2", Context{
			From: "a1", To: "a2", ConfigRef: "a1",
			Reports: []string{"github-annotations", "github-summary", "sarif=ocr.sarif"}}},
		{"new branch", "push", `{"before":"` + zeroSHA + `","after":"a2","repository":{"default_branch":"main"}}`, "a2", Context{
			From: "origin/main", To: "a2", ConfigRef: "origin/main", FromIsGuess: true,
			Reports: []string{"github-annotations", "github-summary", "sarif=ocr.sarif"}}},
		{"workflow_dispatch", "workflow_dispatch", `{}`, "c1", Context{Commit: "c1",
			Reports: []string{"github-annotations", "github-summary", "sarif=ocr.sarif"}}},
		{"issue_comment on a PR", "issue_comment", `{"issue":{"number":9,"pull_request":{"url":"x"}}}`, "c1", Context{PR: 9, NeedPR: true,
			Reports: []string{"github-review", "github-annotations", "github-summary", "sarif=ocr.sarif"}}},
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
