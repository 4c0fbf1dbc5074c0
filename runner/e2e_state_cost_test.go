package runner

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/internal/testkit/fakes/githubfake"
	"github.com/ocr-ci/ocr/internal/testkit/fakes/gitlabfake"
	"github.com/ocr-ci/ocr/internal/testkit/llmtest"
	"github.com/ocr-ci/ocr/reporters"
)

// callsReport is the fake's request counts, one "N route" per line.
func callsReport(calls map[string]int) (string, int) {
	var lines []string
	total := 0
	for k, v := range calls {
		lines = append(lines, fmt.Sprintf("%3d %s", v, k))
		total += v
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n"), total
}

// TestStateReadCost (issue 29): what reading the pause and ignore state
// costs a posting run, in API requests. Three members commanded ocr on the
// merge request; ocr acknowledged one pause. The state is read from ocr's
// acknowledgements alone: no membership lookups (before: one GET
// /members/all/:id per distinct commander) and no read of the merge
// request for the trust rule.
func TestStateReadCost(t *testing.T) {
	t.Parallel()
	p := newPRRepo(t)
	gl := gitlabfake.New(t, gitlabfake.Config{Diff: prDiff(p.testRepo, p.base, p.head), Base: p.root, Start: p.base, Head: p.head})
	for i, name := range []string{"alice", "bob", "carol"} {
		u := gitlabfake.Human(name)
		gl.AddMember(gitlabfake.Member{User: u, AccessLevel: 30})
		gl.AddNote(u, []string{"/ocr pause", "/ocr resume", "/ocr pause"}[i])
	}
	gl.AddNote(gitlabfake.User{ID: 9042, Username: "project_42_bot_3f1e0c2a"}, "Paused.\n\n<!-- ocr:ack verb=pause by=carol at=2026-01-01T00:00:00Z -->")
	useLLM(t, llmtest.New(t, storeScript(1)))
	gitlabJob(t, p, gl)
	code, _, errs := run(t, "review", "--repo", p.dir, "--no-filter", "--report", "gitlab-discussion")
	if code != reporters.ExitOK {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	report, total := callsReport(gl.Calls())
	t.Logf("GitLab merge request run, %d API requests:\n%s", total, report)
	for route := range gl.Calls() {
		if strings.Contains(route, "/members/") {
			t.Errorf("the state read looked up a member: %s", route)
		}
	}
	if !strings.Contains(errs, "paused by carol") {
		t.Errorf("the acknowledged pause is not read:\n%s", errs)
	}

	gh := githubfake.New(t, githubfake.Config{Diff: prDiff(p.testRepo, p.base, p.head), Base: p.base, Head: p.head, Title: "t",
		Author: githubfake.User{Login: "pr-author", ID: 777001, Type: "User"}})
	gh.AddIssueCommentAs(githubfake.User{Login: "alice", ID: 583231, Type: "User"}, "MEMBER", "/ocr pause")
	useLLM(t, llmtest.New(t, storeScript(1)))
	githubStep(t, p.testRepo, gh.URL, "github-pr", "event.json", "pull_request", p.shas())
	setVar(t, "GITHUB_GRAPHQL_URL", gh.GraphQLURL())
	setVar(t, "OCR_CHAT_TRUST", "OWNER,MEMBER,COLLABORATOR,author")
	if code, _, errs := run(t, "review", "--repo", p.dir, "--no-filter"); code != reporters.ExitOK {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	report, total = callsReport(gh.Calls())
	t.Logf("GitHub pull_request run (OCR_CHAT_TRUST with author), %d API requests:\n%s", total, report)
}
