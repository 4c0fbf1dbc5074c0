package github

import (
	"context"
	"net/http"
	"strings"

	"github.com/ocr-ci/ocr/reporters/posting"

	"github.com/google/go-github/v62/github"
)

// ghTrust says which comments are ocr's own. Markers alone prove nothing:
// anyone who can comment on the pull request, its author included, can
// write "<!-- ocr:summary -->" or "<!-- ocr:fp=... -->". A forged summary
// would make the next review incremental from a head of the forger's
// choosing; a forged fingerprint would suppress a finding. So a marker
// counts only in a comment written by the account ocr posts as.
type ghTrust struct {
	// login and id are the personal access token's own account; login ""
	// means the token posts as a bot (GITHUB_TOKEN, GitHub App), whose
	// login GitHub does not tell it: any comment by a Bot is trusted.
	login string
	id    int64
}

// ours reports whether a comment by u counts as ocr's.
func (t ghTrust) ours(u *github.User) bool {
	if t.login == "" {
		return u.GetType() == "Bot"
	}
	if t.id != 0 && u.GetID() != 0 {
		return u.GetID() == t.id
	}
	return strings.EqualFold(u.GetLogin(), t.login)
}

// installationPrefix starts GitHub App installation tokens, GITHUB_TOKEN
// included: they post as a bot, and GET /user would only answer 403.
// https://github.blog/engineering/platform-security/behind-githubs-new-authentication-token-formats/
const installationPrefix = "ghs_"

// trust learns once per GitHubReview, on first need, who the token posts
// as: GET /user answers a personal access token's account and 403 (or
// 401) for an installation token, which posts as a bot. Any other failure
// falls back to the bot rule and says so.
// https://docs.github.com/rest/users/users#get-the-authenticated-user
func (run *ghRun) trust(ctx context.Context) ghTrust {
	g := run.g
	g.trustMu.Lock()
	defer g.trustMu.Unlock()
	if g.trusted != nil {
		return *g.trusted
	}
	t := run.lookupTrust(ctx)
	g.trusted = &t
	return t
}

func (run *ghRun) lookupTrust(ctx context.Context) ghTrust {
	const botRule = "only comments by bots (user.type Bot) count as ocr's own"
	if strings.HasPrefix(run.g.Token, installationPrefix) {
		run.g.logf("ocr: the token is a GitHub App installation token (GITHUB_TOKEN): %s", botRule)
		return ghTrust{}
	}
	u, _, err := run.c.Users.Get(ctx, "")
	switch status := ghStatus(err); {
	case err == nil && u.GetLogin() != "":
		run.g.logf("ocr: the token posts as %s: only their comments count as ocr's own", u.GetLogin())
		return ghTrust{login: u.GetLogin(), id: u.GetID()}
	case status == http.StatusForbidden || status == http.StatusUnauthorized:
		run.g.logf("ocr: GET /user answered %d, so the token is an installation token (GITHUB_TOKEN or a GitHub App) "+
			"that posts as a bot: %s", status, botRule)
	case err == nil:
		run.g.logf("ocr: GET /user named no account: %s", botRule)
	default:
		run.g.logf("ocr: could not learn which account the token posts as (%v): %s; earlier comments "+
			"posted with a personal access token will not be recognised", err, botRule)
	}
	return ghTrust{}
}

// ownComment reports whether a review comment is ocr's finding: a root
// comment (replies never are) ending with a fingerprint marker, written
// by ocr's account. The account is looked up only when a marker is found.
func (run *ghRun) ownComment(ctx context.Context, c *github.PullRequestComment) (string, bool) {
	fp, marked := posting.MarkerFingerprint(c.GetBody())
	if c.InReplyTo != nil || !marked {
		return "", false
	}
	return fp, run.trust(ctx).ours(c.GetUser())
}

// ownSummary reports whether an issue comment is ocr's sticky summary.
func (run *ghRun) ownSummary(ctx context.Context, c *github.IssueComment) bool {
	return posting.IsSummary(c.GetBody()) && run.trust(ctx).ours(c.GetUser())
}
