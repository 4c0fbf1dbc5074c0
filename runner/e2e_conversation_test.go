package runner

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/internal/testkit/fakes"
	"github.com/ocr-ci/ocr/internal/testkit/fakes/githubfake"
	"github.com/ocr-ci/ocr/internal/testkit/llmtest"
	"github.com/ocr-ci/ocr/reporters"
)

// chatStep makes the next run a comment event: the comment is on the
// fake (as alice, a member) and the payload says so.
func chatStep(t *testing.T, step ghRunner, p prRepo, event string, id, root int64, body string) {
	t.Helper()
	b, _ := json.Marshal(body)
	setVar(t, "GITHUB_EVENT_NAME", event)
	name := "issue_comment.json"
	if event == "pull_request_review_comment" {
		name = "review_comment.json"
	}
	writeEvent(t, e2ePath("github-chat", name), step.event, map[string]any{"Base": p.base, "Head": p.head, "ID": id, "Root": root, "Body": string(b)})
}

// TestE2EConversation is a pull request's conversation in GitHub Actions,
// one `ocr review` step for every event: a review, a question answered in
// ocr's thread, a pause, a push that posts nothing inline, a resume, and a
// push whose findings (those found while paused included) are posted.
func TestE2EConversation(t *testing.T) {
	t.Parallel()
	p := newPRRepo(t)
	gh := githubfake.New(t, githubfake.Config{Diff: prDiff(p.testRepo, p.base, p.head), Base: p.base, Head: p.head, Title: "store: simplify Get",
		Author: githubfake.User{Login: "pr-author", ID: 777001, Type: "User"}})
	llm := llmtest.New(t, storeScript(1), llmtest.Script{Name: "cache", Match: []string{"cache/cache.go"}, Answers: []llmtest.Answer{cacheComments()}},
		llmtest.Script{Name: "extra", Match: []string{"cache/extra.go"}, Answers: []llmtest.Answer{llmtest.Calls(llmtest.Done())}},
		llmtest.Script{Name: "answer", Match: []string{"You answer questions about a pull request", "can k be missing"}, Answers: []llmtest.Answer{
			llmtest.Calls(llmtest.Tool("file_read", map[string]any{"file_path": "store/store.go"})),
			llmtest.Text("Yes: `m[k]` is nil for a missing k, and line 6 dereferences it. <b>@pr-author</b> ::error::x"),
		}})
	step := githubStep(t, p.testRepo, gh.URL, "github-pr", "event.json", "pull_request", p.shas())
	useLLM(t, llm)
	setVar(t, "GITHUB_GRAPHQL_URL", gh.GraphQLURL())
	alice := githubfake.User{Login: "alice", ID: 583231, Type: "User"}

	code, _, errs := run(t, "review", "--repo", p.dir, "--no-filter")
	if code != reporters.ExitOK || len(gh.Reviews()) != 1 {
		t.Fatalf("first review: exit %d, %d reviews\n%s", code, len(gh.Reviews()), errs)
	}
	finding := gh.Comments()[0]

	// A question in ocr's thread.
	root := finding.ID
	q := gh.AddComment(githubfake.Comment{Body: "@ocr can k be missing here?", Path: "store/store.go", InReplyTo: &root, User: alice, AuthorAssociation: "MEMBER"})
	chatStep(t, step, p, "pull_request_review_comment", q.ID, root, q.Body)
	code, _, errs = run(t, "review", "--repo", p.dir)
	replies := gh.Replies(root)
	if code != 0 || len(replies) != 2 || !strings.Contains(replies[1].Body, "line 6 dereferences it") {
		t.Fatalf("answer: exit %d, replies %+v\n%s", code, replies, errs)
	}
	if b := replies[1].Body; strings.Contains(b, "<b>") || strings.Contains(b, "@pr-author") || strings.Contains(b, "\n::error") {
		t.Errorf("the answer is not escaped:\n%s", b)
	}
	t.Logf("answer run stderr:\n%s", errs)

	// Pause, then a push: no inline comment, the summary says paused.
	c := gh.AddIssueCommentAs(alice, "MEMBER", "/ocr pause")
	chatStep(t, step, p, "issue_comment", c.ID, 0, c.Body)
	if code, _, errs = run(t, "review", "--repo", p.dir); code != 0 {
		t.Fatalf("pause: exit %d\n%s", code, errs)
	}
	p.pushCache()
	gh.Push(p.head, prDiff(p.testRepo, p.base, p.head))
	writeEvent(t, e2ePath("github-pr", "event.json"), step.event, p.shas())
	setVar(t, "GITHUB_EVENT_NAME", "pull_request")
	gh.ResetCalls()
	code, _, errs = run(t, "review", "--repo", p.dir, "--no-filter")
	if code != 0 || len(gh.Reviews()) != 1 || gh.Calls()[gh.Route("POST", "reviews")] != 0 {
		t.Fatalf("paused push: exit %d, %d reviews, calls %v\n%s", code, len(gh.Reviews()), gh.Calls(), errs)
	}
	if s := gh.IssueComments()[0].Body; !strings.Contains(s, "Paused by @\u200balice") {
		t.Errorf("the summary does not say paused:\n%s", s)
	}
	t.Logf("paused push stderr:\n%s", errs)

	// Resume, then a push: the finding found while paused is posted.
	c = gh.AddIssueCommentAs(alice, "MEMBER", "/ocr resume")
	chatStep(t, step, p, "issue_comment", c.ID, 0, c.Body)
	if code, _, errs = run(t, "review", "--repo", p.dir); code != 0 {
		t.Fatalf("resume: exit %d\n%s", code, errs)
	}
	p.write("cache/extra.go", "package cache\n")
	p.git("add", "cache/extra.go")
	p.git("commit", "-q", "-m", "extra")
	p.head = p.git("rev-parse", "HEAD")
	gh.Push(p.head, prDiff(p.testRepo, p.base, p.head))
	writeEvent(t, e2ePath("github-pr", "event.json"), step.event, p.shas())
	setVar(t, "GITHUB_EVENT_NAME", "pull_request")
	gh.ResetCalls()
	code, _, errs = run(t, "review", "--repo", p.dir, "--no-filter")
	if code != 0 || len(gh.Reviews()) != 2 {
		t.Fatalf("resumed push: exit %d, %d reviews\n%s", code, len(gh.Reviews()), errs)
	}
	if rv := gh.LastReview(); len(rv.Comments) != 1 || rv.Comments[0].Path != "cache/cache.go" {
		t.Errorf("resumed push posted %+v", rv.Comments)
	}
	if s := gh.IssueComments()[0].Body; strings.Contains(s, "Paused") {
		t.Errorf("the summary still says paused:\n%s", s)
	}
	t.Logf("resumed push stderr:\n%s", errs)

	// A plain comment costs nothing.
	c = gh.AddIssueCommentAs(alice, "MEMBER", "Thanks!")
	chatStep(t, step, p, "issue_comment", c.ID, 0, c.Body)
	gh.ResetCalls()
	before := llm.Count()
	code, _, errs = run(t, "review", "--repo", p.dir)
	if code != 0 || len(gh.Calls()) != 0 || llm.Count() != before || !strings.Contains(errs, "nothing to do: the comment neither mentions @ocr") {
		t.Errorf("plain comment: exit %d, calls %v, %d model requests\n%s", code, gh.Calls(), llm.Count()-before, errs)
	}
	_ = fakes.Writes
}
