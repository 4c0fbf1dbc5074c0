package runner

import (
	"context"
	"strconv"

	"github.com/ocr-ci/ocr/conversation"
	"github.com/ocr-ci/ocr/conversation/gitlabchat"
	"github.com/ocr-ci/ocr/internal/ci"
	"github.com/ocr-ci/ocr/internal/config"
	"github.com/ocr-ci/ocr/internal/git"
	"github.com/ocr-ci/ocr/reporters"
	"github.com/ocr-ci/ocr/reporters/gitlab"
)

// converseGitLab handles a note event of a GitLab trigger pipeline
// (TRIGGER_PAYLOAD): the payload decides whether there is anything to do;
// who wrote the note and what it says are then read from the API.
func (c *Command) converseGitLab(ctx context.Context, cfg *config.Config, env ci.Env) (code int, done bool) {
	data, err := ci.ReadTriggerPayload(env.GitLab)
	if err != nil {
		return c.fail(usagef("%w", err)), true
	}
	p, err := gitlabchat.ParseEvent(data)
	if err != nil {
		return c.fail(usagef("%w", err)), true
	}
	if why := c.skipTrigger(p, env.GitLab, cfg); why != "" {
		c.logf("nothing to do: %s", why)
		return 0, true
	}
	if env.GitLab.Token == "" {
		return c.fail(usagef("answering on GitLab needs OCR_GITLAB_TOKEN (or GITLAB_TOKEN): a project or group access token " +
			"with the api scope; CI_JOB_TOKEN cannot create merge request notes")), true
	}
	if pid := env.GitLab.ProjectID; pid != "" && p.ProjectID != 0 && pid != strconv.FormatInt(p.ProjectID, 10) {
		return c.fail(usagef("the note event is for project %d but this pipeline runs in project %s: "+
			"point that project's webhook at its own trigger", p.ProjectID, pid)), true
	}
	c.logf("note by %s on merge request !%d", p.Event.Comment.Author.Login, p.Event.PR)
	ctx, cancel := context.WithTimeout(ctx, cfg.Timeout)
	defer cancel()
	f, err := c.gitlabChatForge(env, p.Event.PR)
	if err != nil {
		return c.fail(err), true
	}
	ev := p.Event
	if err := f.Confirm(ctx, &ev); err != nil {
		c.logf("%v", err)
		return reporters.ExitIncomplete, true
	}
	h, closeRepo := c.gitlabChatHandler(cfg, f)
	defer closeRepo()
	out := h.Handle(ctx, ev)
	return out.Code, !out.Review
}

// skipTrigger says why a payload asks nothing of ocr ("" when it may).
func (c *Command) skipTrigger(p gitlabchat.Payload, g ci.GitLabEnv, cfg *config.Config) string {
	switch {
	case p.Kind != "note":
		return "the webhook sent a " + orDash(p.Kind) + " event: ocr answers note events (the webhook's Comments events)"
	case p.System:
		return "a system note (written by GitLab itself) is never answered"
	}
	_, why := conversation.Triage(p.Event, cfg.ChatSettings(false))
	return why
}

// gitlabChatForge is the forge of merge request mr, sharing the review
// poster's client and its rule for ocr's own notes.
func (c *Command) gitlabChatForge(env ci.Env, mr int) (*gitlabchat.Forge, error) {
	g := env.GitLab
	d := &gitlab.Discussion{BaseURL: g.APIURL, Token: g.Token, TokenSource: "OCR_GITLAB_TOKEN", CAFile: g.CAFile,
		Project: gitlabProject(g), MR: mr, Logf: c.logf, Sleep: c.sleep}
	client, err := d.Client()
	if err != nil {
		return nil, usagef("%w", err)
	}
	return gitlabchat.New(gitlabchat.Options{Client: client, Project: d.Project, MR: mr, Identity: d})
}

// gitlabChatHandler wires the handler of a GitLab note.
func (c *Command) gitlabChatHandler(cfg *config.Config, f conversation.Forge) (*conversation.Handler, func()) {
	var repo *git.Repo
	h := &conversation.Handler{Forge: f, Settings: cfg.ChatSettings(false), ForkSettings: cfg.ChatSettings(true),
		Language: cfg.Language, Logf: c.logf,
		Material: func(ctx context.Context, _ bool) (*conversation.Material, error) {
			m, r, err := c.chatMaterial(ctx, cfg)
			repo = r
			return m, err
		}}
	return h, func() {
		if repo != nil {
			closeRepo(repo)
		}
	}
}

// gitlabProject is the merge request's project: CI_MERGE_REQUEST_PROJECT_ID,
// else CI_PROJECT_ID.
func gitlabProject(g ci.GitLabEnv) string {
	if g.MRProjectID != "" {
		return g.MRProjectID
	}
	return g.ProjectID
}
