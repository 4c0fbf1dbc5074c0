package ci

import (
	"context"
	"fmt"

	"github.com/ocr-ci/ocr/internal/infra/githubapi"
)

// ResolvePR fills the range of a pull request that the event only names
// (issue_comment): its base and head SHAs come from the API.
// https://docs.github.com/rest/pulls/pulls#get-a-pull-request
func ResolvePR(ctx context.Context, ci *Context, g GitHubEnv) error {
	c, err := githubapi.New(g.Token, g.APIURL)
	if err != nil {
		return err
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
