package chatrun

import (
	"cmp"
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/ocr-ci/ocr/conversation"
	"github.com/ocr-ci/ocr/conversation/githubchat"
	"github.com/ocr-ci/ocr/conversation/gitlabchat"
	"github.com/ocr-ci/ocr/internal/app/ci"
	"github.com/ocr-ci/ocr/internal/app/config"
	"github.com/ocr-ci/ocr/reporters"
)

// GitHubForge is the GitHub forge of pull request pr; botLogin is the
// account a bot token posts as (OCR_GITHUB_LOGIN); hc is the run's forge
// client, nil for a default one; sleep replaces the forge's waits (nil:
// real ones).
func GitHubForge(env ci.Env, pr int, botLogin string, hc *http.Client, sleep func(context.Context, time.Duration) error, logf func(string, ...any)) (*githubchat.Forge, error) {
	g := env.GitHub
	owner, name, _ := strings.Cut(g.Repository, "/")
	f, err := githubchat.New(githubchat.Options{Token: g.Token, BaseURL: g.APIURL, GraphQLURL: g.GraphQLURL, BotLogin: botLogin,
		Owner: owner, Repo: name, PR: pr, HTTPClient: hc, Sleep: sleep, Logf: logf})
	if err != nil {
		return nil, usagef("%w", err)
	}
	return f, nil
}

// GitLabOptions connect a GitLab forge to merge request mr of the job's
// project; hc is the run's forge client, nil for a default one.
func GitLabOptions(g ci.GitLabEnv, mr int, hc *http.Client, sleep func(context.Context, time.Duration) error, logf func(string, ...any)) gitlabchat.Options {
	return gitlabchat.Options{BaseURL: g.APIURL, Token: g.Token, CAFile: g.CAFile, HTTPClient: hc,
		Project: cmp.Or(g.MRProjectID, g.ProjectID), MR: mr, Sleep: sleep, Logf: logf}
}

// converseGitLab handles the note event of a GitLab trigger pipeline
// (TRIGGER_PAYLOAD; a bad one exits 2): the payload decides whether there
// is anything to do; the note, its author and the merge request are read
// from the API.
func converseGitLab(ctx context.Context, o Options, cfg *config.Config, g ci.GitLabEnv) (code int, done bool) {
	data, err := ci.ReadTriggerPayload(g)
	var p gitlabchat.Payload
	skip := ""
	if err == nil {
		p, skip, err = gitlabchat.ParseTrigger(data, gitlabchat.Setup{Project: g.ProjectID, Token: g.Token != "", Chat: conversation.Settings(cfg.ChatSettings(false))})
	}
	if err != nil {
		return o.Fail(usagef("%w", err)), true
	}
	if skip != "" {
		o.Logf("nothing to do: %s", skip)
		return 0, true
	}
	o.Logf("note by %s on merge request !%d", p.Event.Comment.Author.Login, p.Event.PR)
	ctx, cancel := context.WithTimeout(ctx, cfg.Timeout)
	defer cancel()
	f, ev, err := gitlabchat.Open(ctx, GitLabOptions(g, p.Event.PR, nil, o.Sleep, o.Logf), p)
	if err != nil {
		o.Logf("%v", err)
		return reporters.ExitIncomplete, true
	}
	h, closeRepo := newHandler(o, cfg, f)
	defer closeRepo()
	out := h.Handle(ctx, ev)
	return o.ExitCode(out.Err), !out.Review
}

// ResolveTriggerMR reads a trigger pipeline's merge request from the API
// (head from diff_refs, target branch, projects, state): the note event's
// payload only names it (ci.Context.NeedMR). forge is the run's client;
// o's Sleep and Logf are used.
func ResolveTriggerMR(ctx context.Context, o Options, env ci.Env, cx *ci.Context, forge *http.Client) error {
	g := env.GitLab
	if g.Token == "" {
		return usagef("a trigger pipeline reads its merge request from the API: set OCR_GITLAB_TOKEN (or GITLAB_TOKEN)")
	}
	r, err := gitlabchat.ReadRefs(ctx, GitLabOptions(g, cx.PR, forge, o.Sleep, o.Logf))
	if err != nil {
		return err
	}
	return cx.FromMergeRequest(ci.MergeRequest(r))
}
