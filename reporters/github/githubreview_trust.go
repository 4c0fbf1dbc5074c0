package github

import (
	"context"

	"github.com/ocr-ci/ocr/internal/infra/githubapi"
	"github.com/ocr-ci/ocr/reporters/posting"

	"github.com/google/go-github/v62/github"
)

// Which comments are ocr's own: markers alone prove nothing, since anyone
// who can comment on the pull request, its author included, can write
// "<!-- ocr:summary -->" or "<!-- ocr:fp=... -->". A forged summary would
// make the next review incremental from a head of the forger's choosing;
// a forged fingerprint would suppress a finding. So a marker counts only
// in a comment written by the account ocr posts as (githubapi.Account,
// learnt once per run: a personal access token's own account, or for a
// bot token the configured Review.BotLogin, by default ActionsBot).

// ActionsBot is the account GITHUB_TOKEN posts as.
const ActionsBot = githubapi.ActionsBot

// trust is who the token posts as, learnt on first need and said once.
func (run *ghRun) trust(ctx context.Context) githubapi.Account {
	a := run.pr.Account(ctx)
	if a.Notice != "" {
		run.g.saidWho.Do(func() { run.g.logf("ocr: %s", a.Notice) })
	}
	return a
}

// ownComment reports whether a review comment is ocr's finding: a root
// comment (replies never are) ending with a fingerprint marker, written
// by ocr's account. The account is looked up only when a marker is found.
func (run *ghRun) ownComment(ctx context.Context, c *github.PullRequestComment) (string, bool) {
	fp, marked := posting.MarkerFingerprint(c.GetBody())
	if c.InReplyTo != nil || !marked {
		return "", false
	}
	return fp, run.trust(ctx).Owns(c.GetUser())
}

// ownSummary reports whether an issue comment is ocr's sticky summary.
func (run *ghRun) ownSummary(ctx context.Context, c *github.IssueComment) bool {
	return posting.IsSummary(c.GetBody()) && run.trust(ctx).Owns(c.GetUser())
}
