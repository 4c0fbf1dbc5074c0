package runner

import (
	"cmp"
	"context"
	"net/http"

	"github.com/ocr-ci/ocr/conversation"
	"github.com/ocr-ci/ocr/review/reportspec"

	"github.com/ocr-ci/ocr/conversation/gitlabchat"
	"github.com/ocr-ci/ocr/internal/app/ci"
	"github.com/ocr-ci/ocr/internal/app/config"
	"github.com/ocr-ci/ocr/reporters"
)

// converseGitLab handles the note event of a GitLab trigger pipeline
// (TRIGGER_PAYLOAD; a bad one exits 2): the payload decides whether there
// is anything to do; the note, its author and the merge request are read from the API.
func (c *Command) converseGitLab(ctx context.Context, cfg *config.Config, g ci.GitLabEnv) (code int, done bool) {
	data, err := ci.ReadTriggerPayload(g)
	var p gitlabchat.Payload
	skip := ""
	if err == nil {
		p, skip, err = gitlabchat.ParseTrigger(data, gitlabchat.Setup{Project: g.ProjectID, Token: g.Token != "", Chat: conversation.Settings(cfg.ChatSettings(false))})
	}
	if err != nil {
		return c.fail(usagef("%w", err)), true
	}
	if skip != "" {
		c.logf("nothing to do: %s", skip)
		return 0, true
	}
	c.logf("note by %s on merge request !%d", p.Event.Comment.Author.Login, p.Event.PR)
	ctx, cancel := context.WithTimeout(ctx, cfg.Timeout)
	defer cancel()
	f, ev, err := gitlabchat.Open(ctx, c.gitlabChat(g, p.Event.PR, nil), p)
	if err != nil {
		c.logf("%v", err)
		return reporters.ExitIncomplete, true
	}
	h, closeRepo := c.newChatHandler(cfg, f)
	defer closeRepo()
	out := h.Handle(ctx, ev)
	return exitCode(out.Err), !out.Review
}

// gitlabPoster reports whether the run posts a GitLab discussion.
func (c *Command) gitlabPoster(j *job) bool {
	return posts(j, ci.PlatformGitLab, reportspec.KindGitLabDiscussion) && j.env.GitLab.Token != ""
}

// gitlabChat connects a GitLab forge to merge request mr of the job's
// project; hc is the run's forge client (job.forge), nil for a default one.
func (c *Command) gitlabChat(g ci.GitLabEnv, mr int, hc *http.Client) gitlabchat.Options {
	return gitlabchat.Options{BaseURL: g.APIURL, Token: g.Token, CAFile: g.CAFile, HTTPClient: hc,
		Project: cmp.Or(g.MRProjectID, g.ProjectID), MR: mr, Sleep: c.sleep, Logf: c.logf}
}

// gitlabForge is the conversation forge of the run's merge request (nil,
// said, when there is none), reading through the run's forge client.
func (c *Command) gitlabForge(j *job) conversation.Forge {
	f, err := gitlabchat.New(c.gitlabChat(j.env.GitLab, j.ci.PR, j.forge))
	if err != nil {
		c.logf("could not read the merge request's conversation: %v", err)
		return nil
	}
	return f
}

// resolveTriggerMR reads a trigger pipeline's merge request from the API
// (head from diff_refs, target branch, projects, state): the note event's
// payload only names it (ci.Context.NeedMR).
func (c *Command) resolveTriggerMR(ctx context.Context, env ci.Env, cx *ci.Context, forge *http.Client) error {
	g := env.GitLab
	if g.Token == "" {
		return usagef("a trigger pipeline reads its merge request from the API: set OCR_GITLAB_TOKEN (or GITLAB_TOKEN)")
	}
	r, err := gitlabchat.ReadRefs(ctx, c.gitlabChat(g, cx.PR, forge))
	if err != nil {
		return err
	}
	return cx.FromMergeRequest(ci.MergeRequest(r))
}
