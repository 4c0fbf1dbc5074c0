package githubchat

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/google/go-github/v62/github"

	"github.com/ocr-ci/ocr/conversation"
	"github.com/ocr-ci/ocr/internal/infra/githubapi"
)

// Options configure a Forge.
type Options struct {
	Token, BaseURL, GraphQLURL string
	// BotLogin is the account a bot token posts as (OCR_GITHUB_LOGIN); ""
	// means github-actions[bot]. A personal access token's account is
	// learnt from GET /user, as the review poster learns it
	// (githubapi.Account).
	BotLogin string
	// HTTPClient sends the requests (a run's, so that what the poster and
	// the forge read is read once; tests: the fake's); nil: a default one.
	HTTPClient  *http.Client
	Owner, Repo string
	PR          int
	Sleep       func(ctx context.Context, d time.Duration) error
	Logf        func(format string, args ...any)
}

// Forge is conversation.Forge on one GitHub pull request. It reads the
// pull request and its comments once per run.
type Forge struct {
	o   Options
	api *githubapi.PR
	c   *github.Client
	gql *githubapi.GraphQL

	notes []conversation.Note
	read  bool
	pr    *conversation.PullRequest
	// thumbsDown and perms serve Dismissers (reactions.go).
	thumbsDown map[int64]int
	perms      map[string]string
}

var _ conversation.Forge = (*Forge)(nil)

// New connects to the pull request (githubapi.PR); nothing is sent.
func New(o Options) (*Forge, error) {
	api, err := githubapi.NewPR(githubapi.PROptions{Token: o.Token, BaseURL: o.BaseURL, GraphQLURL: o.GraphQLURL, BotLogin: o.BotLogin,
		HTTPClient: o.HTTPClient, Owner: o.Owner, Repo: o.Repo, Number: o.PR, Sleep: o.Sleep, Logf: o.Logf})
	if err != nil {
		return nil, err
	}
	gql, err := api.GraphQL()
	if err != nil {
		return nil, err
	}
	return &Forge{o: o, api: api, c: api.REST(), gql: gql}, nil
}

// Own applies the review poster's rule: a comment by the account the
// token posts as (githubapi.Account).
func (f *Forge) Own(ctx context.Context, a conversation.Author) (bool, error) {
	typ := "User"
	if a.Bot {
		typ = "Bot"
	}
	return f.api.Account(ctx).Owns(&github.User{Login: &a.Login, ID: &a.ID, Type: &typ}), nil
}

// Trusted reports whether a's association is one of trust, or trust holds
// "author" and a wrote the pull request. No API call: GitHub sends
// author_association with every comment.
func (f *Forge) Trusted(_ context.Context, a conversation.Author, trust []string, prAuthor string) (bool, error) {
	for _, t := range trust {
		if t == "author" && prAuthor != "" && strings.EqualFold(a.Login, prAuthor) {
			return true, nil
		}
		if a.Association != "" && t == a.Association {
			return true, nil
		}
	}
	return false, nil
}

// PullRequest reads the pull request once.
// https://docs.github.com/rest/pulls/pulls#get-a-pull-request
func (f *Forge) PullRequest(ctx context.Context) (conversation.PullRequest, error) {
	if f.pr != nil {
		return *f.pr, nil
	}
	pr, _, err := f.c.PullRequests.Get(ctx, f.o.Owner, f.o.Repo, f.o.PR)
	if err != nil {
		return conversation.PullRequest{}, ghError(err, fmt.Sprintf("read pull request #%d", f.o.PR), "pull-requests: read")
	}
	f.pr = &conversation.PullRequest{Title: pr.GetTitle(), Body: pr.GetBody(), Author: pr.GetUser().GetLogin(),
		Fork: fork(pr), Closed: pr.GetState() == "closed", Merged: pr.GetMerged()}
	return *f.pr, nil
}

// fork reports whether the head is untrusted: in another repository, or
// in one GitHub no longer names (a deleted fork sends head.repo: null).
func fork(pr *github.PullRequest) bool {
	head, base := pr.GetHead().GetRepo().GetFullName(), pr.GetBase().GetRepo().GetFullName()
	return head == "" || base == "" || !strings.EqualFold(head, base)
}

// Notes lists the pull request's conversation and review comments, all
// pages, oldest first.
func (f *Forge) Notes(ctx context.Context) ([]conversation.Note, error) {
	if f.read {
		return f.notes, nil
	}
	issue, err := f.issueComments(ctx)
	if err != nil {
		return nil, err
	}
	review, err := f.reviewComments(ctx)
	if err != nil {
		return nil, err
	}
	all := slices.Concat(issue, review)
	slices.SortStableFunc(all, func(a, b dated) int { return a.at.Compare(b.at) })
	f.notes = make([]conversation.Note, len(all))
	for i, d := range all {
		f.notes[i] = d.Note
	}
	f.read = true
	return f.notes, nil
}

// dated is a note and when it was written, to merge the two lists.
type dated struct {
	conversation.Note
	at time.Time
}

// issueComments are the pull request's conversation comments
// (githubapi.PR: all pages, once per run through the run's client).
func (f *Forge) issueComments(ctx context.Context) ([]dated, error) {
	cs, err := f.api.IssueComments(ctx)
	if err != nil {
		return nil, ghError(err, fmt.Sprintf("list the comments of pull request #%d", f.o.PR), "pull-requests: read")
	}
	out := make([]dated, 0, len(cs))
	for _, c := range cs {
		out = append(out, dated{conversation.Note{ID: c.GetID(), Body: c.GetBody(),
			Author: author(c.GetUser(), c.GetAuthorAssociation())}, c.GetCreatedAt().Time})
	}
	return out, nil
}

// reviewComments are the pull request's review comments, as threads.
func (f *Forge) reviewComments(ctx context.Context) ([]dated, error) {
	cs, err := f.api.ReviewComments(ctx)
	if err != nil {
		return nil, ghError(err, fmt.Sprintf("list the review comments of pull request #%d", f.o.PR), "pull-requests: read")
	}
	out := make([]dated, 0, len(cs))
	for _, c := range cs {
		n := conversation.Note{ID: c.GetID(), Body: c.GetBody(), Author: author(c.GetUser(), c.GetAuthorAssociation()),
			InThread: true, Root: cmp.Or(c.GetInReplyTo(), c.GetID()), Path: c.GetPath(), Line: c.GetLine(), StartLine: c.GetStartLine()}
		out = append(out, dated{n, c.GetCreatedAt().Time})
		f.countThumbsDown(c)
	}
	return out, nil
}

func author(u *github.User, assoc string) conversation.Author {
	return conversation.Author{Login: u.GetLogin(), ID: u.GetID(), Bot: strings.EqualFold(u.GetType(), "Bot"),
		Association: strings.ToUpper(assoc)}
}

// Reply answers in root's thread.
// https://docs.github.com/rest/pulls/comments#create-a-reply-for-a-review-comment
func (f *Forge) Reply(ctx context.Context, root conversation.Note, body string) error {
	u := fmt.Sprintf("repos/%s/%s/pulls/%d/comments/%d/replies", f.o.Owner, f.o.Repo, f.o.PR, root.ID)
	req, err := f.c.NewRequest(http.MethodPost, u, map[string]string{"body": body})
	if err != nil {
		return err
	}
	if _, err := f.c.Do(ctx, req, nil); err != nil {
		return ghError(err, fmt.Sprintf("reply in the thread of review comment %d", root.ID), "pull-requests: write")
	}
	return nil
}

// Comment posts on the pull request's conversation.
// https://docs.github.com/rest/issues/comments#create-an-issue-comment
func (f *Forge) Comment(ctx context.Context, body string) error {
	_, _, err := f.c.Issues.CreateComment(ctx, f.o.Owner, f.o.Repo, f.o.PR, &github.IssueComment{Body: &body})
	if err != nil {
		return ghError(err, fmt.Sprintf("comment on pull request #%d", f.o.PR), "pull-requests: write")
	}
	return nil
}

// rateLimited reports a 403 or 429 that is a rate limit: its headers say
// so (retry-after, x-ratelimit-remaining: 0; the retry transport drops
// the latter once it has waited), or GitHub's message does ("API rate
// limit exceeded", "secondary rate limit").
func rateLimited(r *http.Response, message string) bool {
	return r.StatusCode == http.StatusTooManyRequests || r.Header.Get("Retry-After") != "" ||
		r.Header.Get("X-Ratelimit-Remaining") == "0" || strings.Contains(strings.ToLower(message), "rate limit")
}

// ghError says what failed and why, telling apart what needs different
// help: a spent rate limit (x-ratelimit-remaining: 0 or retry-after), a
// locked conversation ("Unable to create comment because issue is
// locked.", 403 or 422), a missing permission, a deleted comment (404).
func ghError(err error, what, perm string) error {
	var rl *github.RateLimitError
	var ab *github.AbuseRateLimitError
	if errors.As(err, &rl) || errors.As(err, &ab) {
		return fmt.Errorf("could not %s: GitHub's rate limit is spent (%w); the answer is in the log, ask again later: %w",
			what, conversation.ErrRateLimited, err)
	}
	var er *github.ErrorResponse
	if !errors.As(err, &er) || er.Response == nil {
		return fmt.Errorf("could not %s: %w", what, err)
	}
	r := er.Response
	switch code := r.StatusCode; {
	case (code == http.StatusForbidden || code == http.StatusTooManyRequests) && rateLimited(r, er.Message):
		return fmt.Errorf("could not %s: GitHub answered 403, rate limited (%w); ask again later: %w", what, conversation.ErrRateLimited, err)
	case (code == http.StatusForbidden || code == http.StatusUnprocessableEntity) && strings.Contains(strings.ToLower(er.Message+fmt.Sprint(er.Errors)), "locked"):
		return fmt.Errorf("could not %s: GitHub answered %d %q (%w): only a maintainer can unlock it: %w", what, code, er.Message, conversation.ErrLocked, err)
	case code == http.StatusForbidden:
		return fmt.Errorf("could not %s: GitHub answered 403 %q (%w; the workflow needs `permissions: %s`): %w",
			what, er.Message, conversation.ErrForbidden, perm, err)
	case code == http.StatusNotFound:
		return fmt.Errorf("could not %s: GitHub answered 404 (%w: deleted, or the token cannot see it): %w", what, conversation.ErrGone, err)
	}
	return fmt.Errorf("could not %s: %w", what, err)
}
