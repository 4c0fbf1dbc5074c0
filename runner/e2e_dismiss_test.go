package runner

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/internal/testkit/fakes"
	"github.com/ocr-ci/ocr/internal/testkit/fakes/githubfake"
	"github.com/ocr-ci/ocr/internal/testkit/fakes/gitlabfake"
	"github.com/ocr-ci/ocr/internal/testkit/llmtest"
	"github.com/ocr-ci/ocr/reporters"
)

// TestE2EGitLabThumbsDownDismisses: alice, a Developer, reacts 👎 to ocr's
// critical finding; the next pipeline treats it as "/ocr ignore" without
// a reason: exit 0 under --fail-on critical, the summary counts it as
// ignored by @alice, and no new discussion is created for it. A Reporter's
// 👎 on another finding changes nothing.
func TestE2EGitLabThumbsDownDismisses(t *testing.T) {
	t.Parallel()
	p := newPRRepo(t)
	gl := gitlabfake.New(t, gitlabfake.Config{Diff: prDiff(p.testRepo, p.base, p.head), Base: p.root, Start: p.base, Head: p.head})
	alice, mallory := gitlabfake.Human("alice"), gitlabfake.Human("mallory")
	gl.AddMember(gitlabfake.Member{User: alice, AccessLevel: 30})
	gl.AddMember(gitlabfake.Member{User: mallory, AccessLevel: 20})
	useLLM(t, llmtest.New(t, storeScript(2)))
	gitlabJob(t, p, gl)
	args := []string{"review", "--repo", p.dir, "--no-filter", "--fail-on", "critical", "--report", "gitlab-discussion", "--full"}
	if code, _, errs := run(t, args...); code != reporters.ExitFindings {
		t.Fatalf("first run: exit %d, want 1 (a critical finding)\n%s", code, errs)
	}
	posted := len(gl.Posted())
	for _, d := range gl.Discussions() {
		switch b := d.Notes[0].Body; {
		case strings.Contains(b, "Dereferencing ptr"):
			gl.Award(d.Notes[0].ID, alice, "thumbsdown")
		case !d.IndividualNote:
			gl.Award(d.Notes[0].ID, mallory, "thumbsdown")
		}
	}
	code, _, errs := run(t, args...)
	if code != reporters.ExitOK {
		t.Fatalf("after alice's 👎: exit %d, want 0\n%s", code, errs)
	}
	if n := len(gl.Posted()); n != posted {
		t.Errorf("%d discussion(s) created after the 👎", n-posted)
	}
	if s := glSummary(t, gl); !strings.Contains(s, "1 finding ignored (by @") || !strings.Contains(s, "alice): not posted") {
		t.Errorf("the summary does not count alice's dismissal:\n%s", s)
	}
	if !strings.Contains(errs, "1 finding(s) dismissed with 👎") {
		t.Errorf("the dismissal is not logged:\n%s", errs)
	}
}

// TestE2EGitHubThumbsDownDismisses: on GitHub, alice (admin on the
// repository, no comment on the pull request) reacts 👎 to the critical
// finding: the re-run passes --fail-on critical, posts nothing new, and
// costs two requests more than a re-run without it (the 👎 of that one
// comment, alice's permission), none for the comments without a 👎.
func TestE2EGitHubThumbsDownDismisses(t *testing.T) {
	t.Parallel()
	p := newPRRepo(t)
	gh := githubfake.New(t, githubfake.Config{Diff: prDiff(p.testRepo, p.base, p.head), Base: p.base, Head: p.head})
	useLLM(t, llmtest.New(t, storeScript(1))) // the second run reuses the review of the head
	githubStep(t, p.testRepo, gh.URL, "github-pr", "event.json", "pull_request", p.shas())
	args := []string{"review", "--repo", p.dir, "--no-filter", "--fail-on", "critical"}
	if code, _, errs := run(t, args...); code != reporters.ExitFindings {
		t.Fatalf("first run: exit %d, want 1\n%s", code, errs)
	}
	var dismissed int64
	for _, c := range gh.Comments() {
		if strings.Contains(c.Body, "Dereferencing ptr") {
			dismissed = c.ID
		}
	}
	alice := githubfake.User{Login: "alice", ID: 501, Type: "User"}
	gh.SetPermission("alice", "admin", false)
	gh.React(dismissed, alice, "-1")
	gh.ResetCalls()
	code, _, errs := run(t, args...)
	if code != reporters.ExitOK {
		t.Fatalf("after alice's 👎: exit %d, want 0\n%s", code, errs)
	}
	calls := gh.Calls()
	if fakes.Writes(calls) != 1 || calls[gh.Route("POST", "reviews")] != 0 {
		t.Errorf("want only the summary edited: %v", calls)
	}
	extra := 0
	for k, v := range calls {
		if strings.HasSuffix(k, "/reactions") || strings.HasSuffix(k, "/permission") {
			extra += v
		}
	}
	if extra != 2 || calls[fmt.Sprintf("GET /repos/o/r/pulls/comments/%d/reactions", dismissed)] != 1 {
		t.Errorf("%d requests for reactions and permissions, want 2: %v", extra, calls)
	}
	if s := gh.IssueComments()[0].Body; !strings.Contains(s, "1 finding ignored (by @") || !strings.Contains(s, "alice)") {
		t.Errorf("the summary does not count alice's dismissal:\n%s", s)
	}
}
