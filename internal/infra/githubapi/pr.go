package githubapi

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/google/go-github/v62/github"
)

// PROptions say which pull request to read, and how.
type PROptions struct {
	// Token authenticates; never logged.
	Token string
	// BaseURL is the REST root (GITHUB_API_URL), GraphQLURL the GraphQL
	// endpoint (GITHUB_GRAPHQL_URL); "" as for New and NewGraphQL.
	BaseURL, GraphQLURL string
	// BotLogin is the account a bot token posts as (OCR_GITHUB_LOGIN);
	// "" means ActionsBot (see Account).
	BotLogin string
	// HTTPClient sends the requests (tests: the fake's); nil: a default one.
	HTTPClient *http.Client
	Owner      string
	Repo       string
	Number     int
	// Sleep waits out rate limits; nil uses a real timer.
	Sleep func(ctx context.Context, d time.Duration) error
	// Logf receives the rate-limit waits; nil discards them.
	Logf func(format string, args ...any)
}

// PR is one pull request as ocr reads it through the API: the REST and
// GraphQL clients, who the token posts as (learnt once), and the pull
// request's issue comments and review comments. A run's clients share one
// readonce transport, so what the last review's state, pause and ignore,
// and the poster read is read once. Safe for concurrent use.
type PR struct {
	o   PROptions
	c   *github.Client
	who *identity

	gqlOnce sync.Once
	gql     *GraphQL
	gqlErr  error
}

// NewPR connects to pull request o.Number of o.Owner/o.Repo; nothing is
// sent. Writes are spaced a second apart, as GitHub asks of clients that
// post comments.
func NewPR(o PROptions) (*PR, error) {
	if o.Logf == nil {
		o.Logf = func(string, ...any) {}
	}
	c, err := New(o.Token, o.BaseURL, WithHTTPClient(o.HTTPClient), WithSleep(o.Sleep), WithLogf(o.Logf), WithWriteGap())
	if err != nil {
		return nil, err
	}
	return &PR{o: o, c: c, who: &identity{token: o.Token, botLogin: o.BotLogin}}, nil
}

// REST is the go-github client.
func (p *PR) REST() *github.Client { return p.c }

// GraphQL is the GraphQL client, built on first need.
func (p *PR) GraphQL() (*GraphQL, error) {
	p.gqlOnce.Do(func() {
		p.gql, p.gqlErr = NewGraphQL(p.o.Token, p.o.GraphQLURL, p.o.BaseURL, WithHTTPClient(p.o.HTTPClient),
			WithSleep(p.o.Sleep), WithLogf(p.o.Logf))
	})
	return p.gql, p.gqlErr
}

// Account is who the token posts as, learnt once (see Account).
func (p *PR) Account(ctx context.Context) Account { return p.who.account(ctx, p.c) }

// IssueComments lists the pull request's conversation comments, all
// pages. Errors are go-github's: the caller names what failed (Wrap).
// https://docs.github.com/rest/issues/comments#list-issue-comments
func (p *PR) IssueComments(ctx context.Context) ([]*github.IssueComment, error) {
	opt := &github.IssueListCommentsOptions{ListOptions: github.ListOptions{PerPage: 100}}
	all, err := listAll(&opt.ListOptions, func() ([]*github.IssueComment, *github.Response, error) {
		return p.c.Issues.ListComments(ctx, p.o.Owner, p.o.Repo, p.o.Number, opt)
	})
	return all, err
}

// ReviewComments lists the pull request's review comments, all pages.
// Errors are go-github's: the caller names what failed (Wrap).
// https://docs.github.com/rest/pulls/comments#list-review-comments-on-a-pull-request
func (p *PR) ReviewComments(ctx context.Context) ([]*github.PullRequestComment, error) {
	opt := &github.PullRequestListCommentsOptions{ListOptions: github.ListOptions{PerPage: 100}}
	all, err := listAll(&opt.ListOptions, func() ([]*github.PullRequestComment, *github.Response, error) {
		return p.c.PullRequests.ListComments(ctx, p.o.Owner, p.o.Repo, p.o.Number, opt)
	})
	return all, err
}

// maxPages stops a listing whose server keeps naming a next page.
const maxPages = 1000

// listAll calls list page after page, following the Link header's
// rel="next" (go-github's NextPage; rel="last" is not relied on, GitHub
// leaves it out of some answers), setting opt.Page before each call.
func listAll[T any](opt *github.ListOptions, list func() ([]T, *github.Response, error)) ([]T, error) {
	var all []T
	for range maxPages {
		page, resp, err := list()
		if err != nil {
			return nil, err
		}
		all = append(all, page...)
		if resp.NextPage == 0 || len(page) == 0 {
			return all, nil
		}
		opt.Page = resp.NextPage
	}
	return nil, fmt.Errorf("GitHub named a next page after %d pages: stopped", maxPages)
}
