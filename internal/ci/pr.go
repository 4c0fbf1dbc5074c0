package ci

import (
	"context"
	"fmt"
	"net/url"
	"strings"

	"github.com/google/go-github/v62/github"
)

// ResolvePR fills the range of a pull request that the event only names
// (issue_comment): its base and head SHAs come from the API.
// https://docs.github.com/rest/pulls/pulls#get-a-pull-request
func ResolvePR(ctx context.Context, ci *Context, g GitHubEnv) error {
	c := github.NewClient(nil)
	if g.Token != "" {
		c = c.WithAuthToken(g.Token)
	}
	if g.APIURL != "" {
		u, err := url.Parse(strings.TrimSuffix(g.APIURL, "/") + "/")
		if err != nil {
			return fmt.Errorf("invalid GITHUB_API_URL %q: %w", g.APIURL, err)
		}
		c.BaseURL = u
	}
	pr, _, err := c.PullRequests.Get(ctx, ci.Owner, ci.Name, ci.PR)
	if err != nil {
		return fmt.Errorf("could not read pull request #%d to review it (the token needs pull-requests: read): %w", ci.PR, err)
	}
	var p githubPR
	p.Number = ci.PR
	p.Base.SHA, p.Head.SHA = pr.GetBase().GetSHA(), pr.GetHead().GetSHA()
	p.Base.Repo.FullName = pr.GetBase().GetRepo().GetFullName()
	p.Head.Repo.FullName = pr.GetHead().GetRepo().GetFullName()
	ci.fromPR(p, "issue_comment")
	// A comment-triggered run is not read-only by itself; a fork's head is
	// reviewed from the base repository's token like pull_request_target.
	ci.NeedPR = false
	return nil
}
