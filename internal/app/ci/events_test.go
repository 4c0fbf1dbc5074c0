package ci

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/internal/testkit/fakes/githubfake"
)

// The SHAs of the payloads in testdata/.
const (
	tdBase   = "8a1f4c2e9d7b6a5c4e3f2a1b0c9d8e7f6a5b4c3d" // a pull request's base
	tdHead   = "3c9e1b7d5f2a8c6e4b0d9f7a5c3e1b8d6f4a2c0e" // its head
	tdBefore = "f1e2d3c4b5a69788796a5b4c3d2e1f0a9b8c7d6e" // a push's before
	tdAfter  = "0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a1b" // and after
	tdMain   = "d4c3b2a1f0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5" // the default branch (GITHUB_SHA)
	tdQBase  = "5e4d3c2b1a0f9e8d7c6b5a4f3e2d1c0b9a8f7e6d" // a merge group's base_sha
	tdQHead  = "7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d0c9b8a" // and head_sha
)

// eventRow is one row of the table in docs/security.md ("What each event
// reviews, and where configuration comes from"): the event, what is
// reviewed (From..To or Commit), the config ref, whether the head is
// untrusted (lower caps) and whether the token is read-only.
type eventRow struct {
	name, file, event, sha string
	from, to, commit, ref  string
	untrusted, readOnly    bool
}

var githubRows = []eventRow{
	{name: "pull_request", file: "pull_request.json", event: "pull_request", sha: tdMain, from: tdBase, to: tdHead, ref: tdBase},
	{name: "pull_request from a fork", file: "pull_request_fork.json", event: "pull_request", sha: tdMain, from: tdBase, to: tdHead, ref: tdBase, untrusted: true, readOnly: true},
	{name: "pull_request_target from a fork", file: "pull_request_fork.json", event: "pull_request_target", sha: tdBase, from: tdBase, to: tdHead, ref: tdBase, untrusted: true},
	{name: "push", file: "push.json", event: "push", sha: tdAfter, from: tdBefore, to: tdAfter, ref: tdBefore},
	{name: "push of a new branch", file: "push_new_branch.json", event: "push", sha: tdAfter, from: "origin/main", to: tdAfter, ref: "origin/main"},
	{name: "workflow_dispatch", file: "workflow_dispatch.json", event: "workflow_dispatch", sha: tdMain, commit: tdMain},
	{name: "schedule", file: "schedule.json", event: "schedule", sha: tdMain, commit: tdMain},
	{name: "issue_comment on a fork's pull request", file: "issue_comment.json", event: "issue_comment", sha: tdMain, from: tdBase, to: tdHead, ref: tdBase, untrusted: true},
	{name: "workflow_run of a pull request", file: "workflow_run_pr.json", event: "workflow_run", sha: tdMain, from: tdBase, to: tdHead, ref: tdBase},
	{name: "workflow_run of a fork's pull request", file: "workflow_run_fork.json", event: "workflow_run", sha: tdMain, commit: tdHead, ref: tdMain, untrusted: true},
	{name: "merge_group", file: "merge_group.json", event: "merge_group", sha: tdQHead, from: tdQBase, to: tdQHead, ref: tdQBase},
}

var gitlabRows = []eventRow{
	{name: "merge_request_event", file: "gitlab_merge_request_event.json", from: tdBase, to: tdHead, ref: tdBase},
	{name: "merged results", file: "gitlab_merged_result.json", from: tdBase, to: tdHead, ref: tdBase},
	{name: "merge request from a fork", file: "gitlab_merge_request_fork.json", from: tdBase, to: tdHead, ref: tdBase, untrusted: true},
	{name: "push", file: "gitlab_push.json", from: tdBefore, to: tdAfter, ref: tdBefore},
	{name: "push of a new branch", file: "gitlab_push_new_branch.json", commit: tdAfter},
	{name: "schedule", file: "gitlab_schedule.json", commit: tdMain},
	{name: "web", file: "gitlab_web.json", commit: tdMain},
	{name: "api", file: "gitlab_api.json", commit: tdMain},
	{name: "trigger", file: "gitlab_trigger.json", commit: tdMain},
}

// TestEventTable: for every event ocr accepts, the range reviewed and the
// ref configuration is read from, from a payload shaped like the
// platform's. A config ref "" means the reviewed commit, which only
// someone with write access chose (a push, a dispatch, a schedule).
func TestEventTable(t *testing.T) {
	for _, row := range githubRows {
		t.Run("github/"+row.name, func(t *testing.T) {
			vars := map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": row.event, "GITHUB_REPOSITORY": "o/r",
				"GITHUB_EVENT_PATH": filepath.Join("testdata", row.file), "GITHUB_SHA": row.sha}
			row.check(t, detectRow(t, vars))
		})
	}
	for _, row := range gitlabRows {
		t.Run("gitlab/"+row.name, func(t *testing.T) {
			var vars map[string]string
			if err := json.Unmarshal(readTestdata(t, row.file), &vars); err != nil {
				t.Fatal(err)
			}
			row.check(t, detectRow(t, vars))
		})
	}
}

// detectRow detects the context as a run does, resolving an
// issue_comment's pull request through a fake GitHub API.
func detectRow(t *testing.T, vars map[string]string) Context {
	t.Helper()
	if vars["GITHUB_EVENT_NAME"] == "issue_comment" {
		gh := githubfake.New(t, githubfake.Config{PR: 42, Token: "ghs_tok", Base: tdBase, Head: tdHead, HeadRepo: "mallory/r"})
		gh.Expect(gh.Route("GET", ""))
		vars["GITHUB_API_URL"], vars["GITHUB_TOKEN"] = gh.URL, "ghs_tok"
	}
	e, err := Load(func(k string) (string, bool) { v, ok := vars[k]; return v, ok })
	if err != nil {
		t.Fatal(err)
	}
	cx, err := Detect(e)
	if err != nil {
		t.Fatal(err)
	}
	if cx.NeedPR {
		if err := ResolvePR(context.Background(), &cx, e.GitHub); err != nil {
			t.Fatal(err)
		}
	}
	return cx
}

func (row eventRow) check(t *testing.T, cx Context) {
	t.Helper()
	if cx.From != row.from || cx.To != row.to || cx.Commit != row.commit {
		t.Errorf("reviews %q..%q commit %q; want %q..%q commit %q (%s)", cx.From, cx.To, cx.Commit, row.from, row.to, row.commit, cx.Why)
	}
	if cx.ConfigRef != row.ref {
		t.Errorf("configuration from %q, want %q (%s)", cx.ConfigRef, row.ref, cx.Why)
	}
	if (cx.UntrustedHead != "") != row.untrusted || cx.ReadOnly != row.readOnly {
		t.Errorf("untrusted head %q, read-only %v; want untrusted %v, read-only %v", cx.UntrustedHead, cx.ReadOnly, row.untrusted, row.readOnly)
	}
	if cx.ConfigRef != "" && (cx.ConfigRef == cx.To || cx.ConfigRef == cx.Commit && cx.UntrustedHead != "") {
		t.Errorf("configuration is read from the reviewed head %q", cx.ConfigRef)
	}
}

func readTestdata(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestMergeGroupConfigFromBase: a merge queue's group is reviewed from its
// base, never as GITHUB_SHA alone, and its configuration is read from
// base_sha: head_sha carries the queued pull requests' own .ocr/.
func TestMergeGroupConfigFromBase(t *testing.T) {
	cx := detectRow(t, map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "merge_group", "GITHUB_REPOSITORY": "o/r",
		"GITHUB_EVENT_PATH": filepath.Join("testdata", "merge_group.json"), "GITHUB_SHA": tdQHead})
	if cx.ConfigRef != tdQBase || cx.Commit != "" || cx.From != tdQBase || cx.To != tdQHead {
		t.Errorf("merge_group: range %q..%q commit %q, configuration from %q; want %s..%s from %s", cx.From, cx.To, cx.Commit, cx.ConfigRef, tdQBase, tdQHead, tdQBase)
	}
	if !strings.Contains(cx.Why, "gh-readonly-queue/main/pr-42") {
		t.Errorf("why does not name the queue branch: %q", cx.Why)
	}
}

// TestDeletedForkIsUntrusted: once the fork of a pull request is deleted
// GitHub sends its head repository as null. An unknown head repository is
// untrusted (fork caps) under every event that reviews a pull request.
func TestDeletedForkIsUntrusted(t *testing.T) {
	for _, c := range []struct{ event, file string }{
		{"pull_request", "pull_request_deleted_fork.json"},
		{"pull_request_target", "pull_request_deleted_fork.json"},
		{"pull_request_review_comment", "pull_request_deleted_fork.json"},
		{"workflow_run", "workflow_run_deleted_fork.json"},
		{"workflow_run", "workflow_run_pr_deleted_fork.json"},
	} {
		vars := map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": c.event, "GITHUB_REPOSITORY": "o/r",
			"GITHUB_EVENT_PATH": filepath.Join("testdata", c.file), "GITHUB_SHA": tdMain}
		if cx := detectRow(t, vars); cx.UntrustedHead == "" {
			t.Errorf("%s (%s): the head counts as the repository's own (%s)", c.event, c.file, cx.Why)
		}
	}
	gh := githubfake.New(t, githubfake.Config{PR: 42, Token: "ghs_tok", Base: tdBase, Head: tdHead, HeadRepoDeleted: true})
	e, err := Load(func(k string) (string, bool) {
		v, ok := map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "issue_comment", "GITHUB_REPOSITORY": "o/r",
			"GITHUB_EVENT_PATH": filepath.Join("testdata", "issue_comment.json"), "GITHUB_API_URL": gh.URL, "GITHUB_TOKEN": "ghs_tok"}[k]
		return v, ok
	})
	if err != nil {
		t.Fatal(err)
	}
	cx, err := Detect(e)
	if err == nil {
		err = ResolvePR(context.Background(), &cx, e.GitHub)
	}
	if err != nil || cx.UntrustedHead == "" {
		t.Errorf("issue_comment: untrusted head %q, %v", cx.UntrustedHead, err)
	}
}
