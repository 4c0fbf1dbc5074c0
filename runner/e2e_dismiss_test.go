package runner

import (
	"strings"
	"testing"

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
