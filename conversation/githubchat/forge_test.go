package githubchat_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ocr-ci/ocr/conversation"
	"github.com/ocr-ci/ocr/conversation/githubchat"
	"github.com/ocr-ci/ocr/internal/testkit/fakes/githubfake"
)

var alice = githubfake.User{Login: "alice", ID: 1, Type: "User"}

func nosleep(context.Context, time.Duration) error { return nil }

func newForge(t *testing.T, gh *githubfake.Server) *githubchat.Forge {
	t.Helper()
	f, err := githubchat.New(githubchat.Options{Token: "tok", BaseURL: gh.URL, GraphQLURL: gh.GraphQLURL(), HTTPClient: gh.Client(),
		Owner: "o", Repo: "r", PR: 7, Sleep: nosleep})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func newFake(t *testing.T) *githubfake.Server {
	return githubfake.New(t, githubfake.Config{Head: "h", Title: "Add Div", Author: githubfake.User{Login: "pr-author", ID: 777001, Type: "User"}})
}

func payload(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", "events", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The real-shaped payloads of both comment events become the events the
// core triages: kind, action, whether it is on a pull request, the
// author as GitHub typed it, and a reply's thread.
func TestParseEventPayloads(t *testing.T) {
	for _, c := range []struct {
		file, event string
		want        conversation.Event
	}{
		{"issue_comment_question.json", githubchat.EventIssueComment, conversation.Event{Kind: conversation.PRComment, Action: "created", OnPR: true, PR: 7,
			PRAuthor: "pr-author", Comment: conversation.Note{ID: 2700000001, Author: conversation.Author{Login: "alice", Association: "MEMBER"}}}},
		{"issue_comment_on_issue.json", githubchat.EventIssueComment, conversation.Event{Kind: conversation.PRComment, Action: "created", PR: 7,
			PRAuthor: "pr-author", Comment: conversation.Note{ID: 2700000001, Author: conversation.Author{Login: "alice", Association: "MEMBER"}}}},
		{"issue_comment_bot.json", githubchat.EventIssueComment, conversation.Event{Kind: conversation.PRComment, Action: "created", OnPR: true, PR: 7,
			PRAuthor: "pr-author", Comment: conversation.Note{ID: 2700000001, Author: conversation.Author{Login: "dependabot[bot]", Bot: true, Association: "NONE"}}}},
		{"review_comment_reply.json", githubchat.EventReviewComment, conversation.Event{Kind: conversation.ThreadReply, Action: "created", OnPR: true, PR: 7,
			PRAuthor: "pr-author", Comment: conversation.Note{ID: 2900000001, Author: conversation.Author{Login: "alice", Association: "MEMBER"},
				InThread: true, Root: 1001, Path: "svc/calc.go", Line: 5}}},
	} {
		got, err := githubchat.ParseEvent(c.event, payload(t, c.file))
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		got.Comment.Body, got.Comment.Author.ID, got.Comment.StartLine = "", 0, 0
		if got != c.want {
			t.Errorf("%s:\n got %+v\nwant %+v", c.file, got, c.want)
		}
	}
}

// A payload that is not one is a clear error naming the variable.
func TestParseEventRefusesOtherPayloads(t *testing.T) {
	for name, data := range map[string]string{
		githubchat.EventIssueComment:  `{"action":"created","issue":`,
		githubchat.EventReviewComment: `{"action":"created","issue":{"number":7}}`,
	} {
		if _, err := githubchat.ParseEvent(name, []byte(data)); err == nil || !strings.Contains(err.Error(), "GITHUB_EVENT_PATH") {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := githubchat.ParseEvent(githubchat.EventIssueComment, []byte(`{"action":"created","issue":{"number":7,"pull_request":{}}}`)); err == nil {
		t.Error("a payload without a comment was read")
	}
}

// Notes lists both kinds of comment through every page, oldest first,
// review comments in their threads; the listing is read once per run.
func TestNotesEveryPage(t *testing.T) {
	gh := newFake(t)
	gh.SetPerPage(2)
	line := 5
	root := gh.AddComment(githubfake.Comment{Body: "finding", Path: "svc/calc.go", Line: &line, Side: "RIGHT", CommitID: "h", User: githubfake.ActionsBot()})
	var want []int64
	want = append(want, root.ID)
	for i := range 3 {
		want = append(want, gh.AddIssueCommentAs(alice, "MEMBER", "q"+string(rune('0'+i))).ID)
		id := root.ID
		want = append(want, gh.AddComment(githubfake.Comment{Body: "r", Path: "svc/calc.go", Line: &line, InReplyTo: &id, CommitID: "h", User: alice, AuthorAssociation: "MEMBER"}).ID)
	}
	f := newForge(t, gh)
	notes, err := f.Notes(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var got []int64
	for _, n := range notes {
		got = append(got, n.ID)
		if n.InThread != (n.Body != strings.TrimPrefix(n.Body, "r") || n.ID == root.ID) || (n.InThread && n.Root != root.ID) {
			t.Errorf("note %+v: thread wrong", n)
		}
	}
	if len(got) != len(want) {
		t.Fatalf("listed %v, want %v (every page)", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("listed %v, want %v (oldest first)", got, want)
		}
	}
	calls := gh.Calls()
	issues, reviews := gh.Route("GET", "issue-comments"), gh.Route("GET", "comments")
	if calls[issues] != 2 || calls[reviews] != 2 { // 3 and 4 comments, 2 a page
		t.Errorf("pages read: %v", calls)
	}
	if _, err := f.Notes(context.Background()); err != nil {
		t.Fatal(err)
	}
	if again := gh.Calls(); again[issues] != calls[issues] || again[reviews] != calls[reviews] {
		t.Errorf("the second Notes asked again: %v then %v", calls, again)
	}
}

// Reply answers in the thread of its first comment; Resolve resolves that
// thread through GraphQL.
func TestReplyAndResolve(t *testing.T) {
	gh := newFake(t)
	line := 5
	root := gh.AddComment(githubfake.Comment{Body: "finding", Path: "svc/calc.go", Line: &line, Side: "RIGHT", CommitID: "h", User: githubfake.ActionsBot()})
	f := newForge(t, gh)
	ctx := context.Background()
	if err := f.Reply(ctx, conversation.Note{ID: root.ID}, "answer"); err != nil {
		t.Fatal(err)
	}
	if rs := gh.Replies(root.ID); len(rs) != 1 || rs[0].Body != "answer" || *rs[0].InReplyTo != root.ID {
		t.Errorf("replies %+v", rs)
	}
	gh.Expect(githubfake.MutationResolve)
	if err := f.Resolve(ctx, conversation.Note{ID: root.ID}); err != nil || !gh.Resolved(root.ID) {
		t.Errorf("resolve: %v, resolved %v", err, gh.Resolved(root.ID))
	}
	if err := f.Comment(ctx, "on the PR"); err != nil {
		t.Fatal(err)
	}
	if cs := gh.IssueComments(); len(cs) != 1 || cs[0].Body != "on the PR" || cs[0].User != githubfake.ActionsBot() {
		t.Errorf("comments %+v", cs)
	}
}

// GITHUB_TOKEN cannot read GET /user (403 "Resource not accessible by
// integration"): ocr is then github-actions[bot], and only that account's
// comments are its own; a personal token is the user GET /user names.
func TestOwnAccount(t *testing.T) {
	ctx := context.Background()
	f := newForge(t, newFake(t))
	bot := conversation.Author{Login: "github-actions[bot]", ID: 41898282, Bot: true}
	if own, err := f.Own(ctx, bot); err != nil || !own {
		t.Errorf("github-actions[bot]: %v, %v", own, err)
	}
	if own, _ := f.Own(ctx, conversation.Author{Login: "alice", ID: 1}); own {
		t.Error("alice's comment counted as ocr's")
	}
	gh := githubfake.New(t, githubfake.Config{Head: "h", PATUser: "ocr-pat"})
	f = newForge(t, gh)
	if own, _ := f.Own(ctx, bot); own {
		t.Error("with a personal token, github-actions[bot] counted as ocr")
	}
	pat := gh.AddIssueComment(githubfake.User{Login: "ocr-pat"}, "x")
	if own, err := f.Own(ctx, conversation.Author{Login: pat.User.Login, ID: pat.User.ID}); err != nil || !own {
		t.Errorf("the token's own user: %v, %v", own, err)
	}
}

// A write's failure names what GitHub meant: a deleted thread is gone, a
// locked conversation locked (403 with GitHub's text), a spent rate limit
// (403 with x-ratelimit-remaining: 0) is no permission problem, and a
// plain 403 names the permission the workflow needs.
func TestWriteErrors(t *testing.T) {
	for _, c := range []struct {
		name  string
		fault githubfake.Fault
		want  error
		say   string
	}{
		{"gone", githubfake.Fault{Status: 404, Message: "Not Found"}, conversation.ErrGone, "404"},
		{"locked", githubfake.Locked, conversation.ErrLocked, "only a maintainer can unlock it"},
		{"locked 422", githubfake.Fault{Status: 422, Message: "Validation Failed: issue is locked"}, conversation.ErrLocked, "422"},
		{"rate limit", githubfake.RateLimited, conversation.ErrRateLimited, "ask again later"},
		{"forbidden", githubfake.Fault{Status: 403, Message: "Resource not accessible by integration"}, conversation.ErrForbidden, "permissions: pull-requests: write"},
	} {
		gh := newFake(t)
		line := 5
		root := gh.AddComment(githubfake.Comment{Body: "finding", Path: "svc/calc.go", Line: &line, CommitID: "h", User: githubfake.ActionsBot()})
		gh.FailReplies(c.fault)
		gh.FailComments(c.fault)
		f := newForge(t, gh)
		for what, err := range map[string]error{
			"reply":   f.Reply(context.Background(), conversation.Note{ID: root.ID}, "a"),
			"comment": f.Comment(context.Background(), "a"),
		} {
			if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.say) {
				t.Errorf("%s %s: %v; want %v saying %q", c.name, what, err, c.want, c.say)
			}
			for _, other := range []error{conversation.ErrGone, conversation.ErrLocked, conversation.ErrRateLimited, conversation.ErrForbidden} {
				if !errors.Is(other, c.want) && errors.Is(err, other) {
					t.Errorf("%s %s: also %v: %v", c.name, what, other, err)
				}
			}
		}
	}
}

// Trust is GitHub's author_association against the trust list, or the
// pull request's author under "author"; it asks no API.
func TestTrustedByAssociation(t *testing.T) {
	gh := newFake(t)
	f := newForge(t, gh)
	trust := []string{"OWNER", "MEMBER"}
	for _, c := range []struct {
		a     conversation.Author
		trust []string
		want  bool
	}{
		{conversation.Author{Login: "alice", Association: "MEMBER"}, trust, true},
		{conversation.Author{Login: "bob", Association: "COLLABORATOR"}, trust, false},
		{conversation.Author{Login: "Pr-Author", Association: "CONTRIBUTOR"}, trust, false},
		{conversation.Author{Login: "Pr-Author", Association: "CONTRIBUTOR"}, append(trust, conversation.TrustAuthor), true},
		{conversation.Author{Login: "mallory", Association: "NONE"}, append(trust, conversation.TrustAuthor), false},
	} {
		if got, err := f.Trusted(context.Background(), c.a, c.trust, "pr-author"); err != nil || got != c.want {
			t.Errorf("%+v with %v: %v, %v", c.a, c.trust, got, err)
		}
	}
	if calls := gh.Calls(); len(calls) != 0 {
		t.Errorf("trust asked the API: %v", calls)
	}
}

// The pull request is read once: a fork's head, a deleted fork's
// (head.repo: null), closed and merged are told apart.
func TestPullRequestState(t *testing.T) {
	for _, c := range []struct {
		cfg  githubfake.Config
		want conversation.PullRequest
	}{
		{githubfake.Config{}, conversation.PullRequest{}},
		{githubfake.Config{HeadRepo: "mallory/r"}, conversation.PullRequest{Fork: true}},
		{githubfake.Config{HeadRepoDeleted: true}, conversation.PullRequest{Fork: true}},
		{githubfake.Config{State: "closed"}, conversation.PullRequest{Closed: true}},
		{githubfake.Config{State: "closed", Merged: true}, conversation.PullRequest{Closed: true, Merged: true}},
	} {
		c.cfg.Head, c.cfg.Title, c.cfg.Author = "h", "Add Div", githubfake.User{Login: "pr-author", ID: 777001, Type: "User"}
		gh := githubfake.New(t, c.cfg)
		f := newForge(t, gh)
		c.want.Title, c.want.Author = "Add Div", "pr-author"
		for range 2 {
			got, err := f.PullRequest(context.Background())
			if err != nil || got != c.want {
				t.Errorf("%+v: %+v, %v; want %+v", c.cfg, got, err, c.want)
			}
		}
		if n := gh.Calls()[gh.Route("GET", "")]; n != 1 {
			t.Errorf("%+v: the pull request was read %d times", c.cfg, n)
		}
	}
}
