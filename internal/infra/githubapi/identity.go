package githubapi

import (
	"cmp"
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"

	"github.com/google/go-github/v62/github"
)

// Account is who a token posts as: a personal access token's own account
// (GET /user), or for a bot token (GITHUB_TOKEN, a GitHub App), whose
// login GitHub does not tell it, the configured login, by default
// ActionsBot. Markers alone prove nothing: anyone who can comment can
// write ocr's hidden markers, so a marker counts only in a comment by
// this account (Owns).
type Account struct {
	Login string
	ID    int64
	// Bot is set for a bot token: the author must also be of type Bot,
	// so a user account cannot pass for the configured login.
	Bot bool
	// Notice says how the account was learnt and what follows from it,
	// for the poster to say once ("the token posts as octocat: only their
	// comments count as ocr's own").
	Notice string
}

// ActionsBot is the account GITHUB_TOKEN posts as.
const ActionsBot = "github-actions[bot]"

// Owns reports whether a comment by u is the account's.
func (a Account) Owns(u *github.User) bool {
	if a.Login == "" {
		return false
	}
	if a.Bot && u.GetType() != "Bot" {
		return false
	}
	if a.ID != 0 && u.GetID() != 0 {
		return u.GetID() == a.ID
	}
	return strings.EqualFold(u.GetLogin(), a.Login)
}

// installationPrefix starts GitHub App installation tokens, GITHUB_TOKEN
// included: they post as a bot, and GET /user would only answer 403.
// https://github.blog/engineering/platform-security/behind-githubs-new-authentication-token-formats/
const installationPrefix = "ghs_"

// identity learns once who a token posts as.
type identity struct {
	token, botLogin string
	mu              sync.Mutex
	acct            *Account
}

// account learns, on first need, who the token posts as: GET /user
// answers a personal access token's account and 403 (or 401) for an
// installation token, which posts as a bot. Any other failure falls back
// to the bot rule and says so.
// https://docs.github.com/rest/users/users#get-the-authenticated-user
func (id *identity) account(ctx context.Context, c *github.Client) Account {
	id.mu.Lock()
	defer id.mu.Unlock()
	if id.acct == nil {
		a := id.lookup(ctx, c)
		id.acct = &a
	}
	return *id.acct
}

func (id *identity) lookup(ctx context.Context, c *github.Client) Account {
	bot := Account{Login: cmp.Or(id.botLogin, ActionsBot), Bot: true}
	botRule := "only comments by " + bot.Login + " count as ocr's own (set OCR_GITHUB_LOGIN to the login of a GitHub App token)"
	if strings.HasPrefix(id.token, installationPrefix) {
		return bot // the default setup (GITHUB_TOKEN): nothing to say
	}
	u, _, err := c.Users.Get(ctx, "")
	switch status := Status(err); {
	case err == nil && u.GetLogin() != "":
		return Account{Login: u.GetLogin(), ID: u.GetID(),
			Notice: "the token posts as " + u.GetLogin() + ": only their comments count as ocr's own"}
	case status == http.StatusForbidden || status == http.StatusUnauthorized:
		// An installation token (GITHUB_TOKEN or a GitHub App) posting as
		// the bot: expected, so no notice.
	case err == nil:
		bot.Notice = "GET /user named no account: " + botRule
	default:
		bot.Notice = fmt.Sprintf("could not learn which account the token posts as (%v): %s; earlier comments "+
			"posted with a personal access token will not be recognised", err, botRule)
	}
	return bot
}
