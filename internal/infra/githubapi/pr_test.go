package githubapi_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/google/go-github/v62/github"

	"github.com/ocr-ci/ocr/internal/infra/githubapi"
	"github.com/ocr-ci/ocr/internal/infra/readonce"
	"github.com/ocr-ci/ocr/internal/testkit/fakes/githubfake"
)

func newPR(t *testing.T, gh *githubfake.Server, hc *http.Client, logs *[]string) *githubapi.PR {
	t.Helper()
	pr, err := githubapi.NewPR(githubapi.PROptions{Token: "tok", BaseURL: gh.URL, HTTPClient: hc, Owner: "o", Repo: "r", Number: 7,
		Logf: func(f string, a ...any) { *logs = append(*logs, fmt.Sprintf(f, a...)) }})
	if err != nil {
		t.Fatal(err)
	}
	return pr
}

// TestPRReadsOncePerRun: both listings read every page (Link
// rel="next"); who the token is is asked once per PR; two PRs of one run
// (the poster, the conversation) on one readonce transport read each page
// once between them, until a write.
func TestPRReadsOncePerRun(t *testing.T) {
	gh := githubfake.New(t, githubfake.Config{PATUser: "octocat"})
	alice := githubfake.User{Login: "alice", ID: 42, Type: "User"}
	for i := range 5 {
		gh.AddIssueComment(alice, fmt.Sprintf("comment %d", i))
		gh.AddComment(githubfake.Comment{Body: fmt.Sprintf("review comment %d", i), Path: "a.go", User: alice})
	}
	gh.SetPerPage(2)
	var logs []string
	run := &http.Client{Transport: readonce.New(gh.Client().Transport)}
	poster, chat := newPR(t, gh, run, &logs), newPR(t, gh, run, &logs)
	ctx := context.Background()
	read := func(p *githubapi.PR) {
		is, err := p.IssueComments(ctx)
		if err != nil || len(is) != 5 || is[4].GetBody() != "comment 4" {
			t.Fatalf("issue comments %d, %v", len(is), err)
		}
		rs, err := p.ReviewComments(ctx)
		if err != nil || len(rs) != 5 || rs[4].GetBody() != "review comment 4" {
			t.Fatalf("review comments %d, %v", len(rs), err)
		}
		if a := p.Account(ctx); a.Login != "octocat" || a.Bot || a.Notice != "the token posts as octocat: only their comments count as ocr's own" {
			t.Errorf("account %+v", a)
		}
	}
	for _, p := range []*githubapi.PR{poster, chat, poster} {
		read(p)
	}
	want := map[string]int{gh.Route("GET", "issue-comments"): 3, gh.Route("GET", "comments"): 3, githubfake.RouteUser: 1}
	checkCalls(t, gh, want)
	body := "x"
	if _, _, err := poster.REST().Issues.CreateComment(ctx, "o", "r", 7, &github.IssueComment{Body: &body}); err != nil {
		t.Fatal(err)
	}
	if is, err := chat.IssueComments(ctx); err != nil || len(is) != 6 {
		t.Errorf("after a write: %d issue comments, %v; want the new one read", len(is), err)
	}
	want[gh.Route("GET", "issue-comments")] += 3
	checkCalls(t, gh, want)
}

func checkCalls(t *testing.T, gh *githubfake.Server, want map[string]int) {
	t.Helper()
	for route, n := range want {
		if got := gh.Calls()[route]; got != n {
			t.Errorf("%s: %d requests, want %d", route, got, n)
		}
	}
}

// TestAccountOwns: a bot token's account owns only comments by that login
// of type Bot; a personal token's, by id when both have one.
func TestAccountOwns(t *testing.T) {
	bot := githubapi.Account{Login: githubapi.ActionsBot, Bot: true}
	u := func(login string, id int64, typ string) *github.User {
		return &github.User{Login: &login, ID: &id, Type: &typ}
	}
	for _, c := range []struct {
		a    githubapi.Account
		u    *github.User
		want bool
	}{
		{bot, u("github-actions[bot]", 41898282, "Bot"), true},
		{bot, u("GitHub-Actions[bot]", 1, "Bot"), true},
		{bot, u("github-actions[bot]", 1, "User"), false},
		{githubapi.Account{Login: "octocat", ID: 9}, u("octocat", 10, "User"), false},
		{githubapi.Account{Login: "octocat", ID: 9}, u("renamed", 9, "User"), true},
		{githubapi.Account{}, u("", 0, "User"), false},
	} {
		if got := c.a.Owns(c.u); got != c.want {
			t.Errorf("%+v owns %s/%d/%s: %v, want %v", c.a, c.u.GetLogin(), c.u.GetID(), c.u.GetType(), got, c.want)
		}
	}
}

// TestWrapKeepsGitHubsMessage: a refusal says what was tried, the status
// and GitHub's message with its validation errors.
func TestWrapKeepsGitHubsMessage(t *testing.T) {
	gh := githubfake.New(t, githubfake.Config{})
	gh.SetReadOnly(true)
	var logs []string
	pr := newPR(t, gh, gh.Client(), &logs)
	body := "x"
	_, _, err := pr.REST().Issues.CreateComment(context.Background(), "o", "r", 7, &github.IssueComment{Body: &body})
	err = githubapi.Wrap(err, "comment on pull request #7")
	if githubapi.Status(err) != 403 || err.Error() != `could not comment on pull request #7: GitHub answered 403 "Resource not accessible by integration"` {
		t.Errorf("%v", err)
	}
	if githubapi.Wrap(nil, "x") != nil {
		t.Error("Wrap(nil) is not nil")
	}
}
