package runner

import (
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/internal/testkit/fakes/githubfake"
	"github.com/ocr-ci/ocr/internal/testkit/llmtest"
	"github.com/ocr-ci/ocr/reporters"
)

// TestE2EConversationConfigErrorExits2 (issue 29 item 5): a truncated
// .ocr/rule.json on the base is a configuration error, not a provider's:
// the question's run exits 2 and its log names the file, the pull request
// gets one neutral line without internal reason names, and the model is
// never asked.
func TestE2EConversationConfigErrorExits2(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	r.write("store/store.go", storeBase)
	r.write(".ocr/rule.json", `{"ignore": [{"fingerprint": "ab`)
	base := r.commit("base")
	r.git("checkout", "-q", "-b", "feature")
	r.write("store/store.go", storeHead)
	head := r.commit("store: simplify Get")
	p := prRepo{testRepo: r, root: base, base: base, head: head}
	gh := githubfake.New(t, githubfake.Config{Diff: prDiff(p.testRepo, p.base, p.head), Base: p.base, Head: p.head, Title: "t",
		Author: githubfake.User{Login: "pr-author", ID: 777001, Type: "User"}})
	llm := llmtest.New(t)
	step := githubStep(t, p.testRepo, gh.URL, "github-pr", "event.json", "pull_request", p.shas())
	useLLM(t, llm)
	setVar(t, "GITHUB_GRAPHQL_URL", gh.GraphQLURL())
	c := gh.AddIssueCommentAs(githubfake.User{Login: "alice", ID: 583231, Type: "User"}, "MEMBER", "@ocr can k be missing?")
	chatStep(t, step, p, "issue_comment", c.ID, 0, c.Body)
	code, _, errs := run(t, "review", "--repo", p.dir)
	if code != reporters.ExitUsage || !strings.Contains(errs, "rule.json") || llm.Count() != 0 {
		t.Fatalf("exit %d (want 2), %d model requests\n%s", code, llm.Count(), errs)
	}
	cs := gh.IssueComments()
	said := cs[len(cs)-1].Body
	if !strings.Contains(said, "could not answer") || strings.Contains(said, "provider_error") || strings.Contains(said, "rule.json") {
		t.Errorf("the pull request was told:\n%s", said)
	}
	t.Logf("stderr:\n%s", errs)
}
