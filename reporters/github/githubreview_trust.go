package github

import (
	"cmp"
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
	// login and id are the account the token posts as: a personal access
	// token's own (learnt from GET /user), or for a bot token (GITHUB_TOKEN,
	// a GitHub App), whose login GitHub does not tell it, the configured
	// Review.BotLogin, by default ActionsBot. Any other bot, dependabot[bot]
	// or an app installed by someone else, is not ocr.
	login string
	id    int64
	// bot is set for a bot token: the author must also be of type Bot, so
	// a user account cannot pass for the configured login.
	bot bool
}

// ActionsBot is the account GITHUB_TOKEN posts as.
const ActionsBot = "github-actions[bot]"

// ours reports whether a comment by u counts as ocr's.
func (t ghTrust) ours(u *github.User) bool {
	if t.login == "" {
		return false
	}
	if t.bot && u.GetType() != "Bot" {
		return false
	}
	if t.id != 0 && u.GetID() != 0 {
		return u.GetID() == t.id
	}
	return strings.EqualFold(u.GetLogin(), t.login)
}

// botTrust is the rule for a bot token: only the configured login.
func (g *Review) botTrust() ghTrust {
	return ghTrust{login: cmp.Or(g.BotLogin, ActionsBot), bot: true}
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
	bot := run.g.botTrust()
	botRule := "only comments by " + bot.login + " count as ocr's own (set OCR_GITHUB_LOGIN to the login of a GitHub App token)"
	if strings.HasPrefix(run.g.Token, installationPrefix) {
		run.g.logf("ocr: the token is a GitHub App installation token (GITHUB_TOKEN): %s", botRule)
		return bot
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
	return bot
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
