package runner

import (
	"context"
	"fmt"
	"slices"

	"github.com/ocr-ci/ocr/agent"
	"github.com/ocr-ci/ocr/conversation"
	"github.com/ocr-ci/ocr/conversation/gitlabchat"
	"github.com/ocr-ci/ocr/internal/app/chatrun"
	"github.com/ocr-ci/ocr/internal/app/ci"
	"github.com/ocr-ci/ocr/internal/app/config"
	"github.com/ocr-ci/ocr/internal/app/plan"
	"github.com/ocr-ci/ocr/internal/domain/rules"
	"github.com/ocr-ci/ocr/internal/infra/git"
	"github.com/ocr-ci/ocr/internal/infra/llm"
	"github.com/ocr-ci/ocr/review"
	"github.com/ocr-ci/ocr/review/reportspec"
)

// chatOptions are the command's helpers a comment event is handled with
// (internal/app/chatrun).
func (c *Command) chatOptions() chatrun.Options {
	return chatrun.Options{Lookup: c.lookup, Stderr: c.Stderr, Logf: c.logf, Sleep: c.sleep,
		Fail: c.fail, ExitCode: exitCode, Material: c.chatMaterial}
}

// chatMaterial is what an answer reads, as a review would: the pull
// request's range (configuration from the trusted ref), the repository at
// its head behind the secrets guard, and the agent.
func (c *Command) chatMaterial(ctx context.Context, cfg *config.Config) (*conversation.Material, *git.Repo, error) {
	j, err := c.newJob(ctx, cfg)
	if err != nil {
		return nil, nil, err
	}
	pr, err := plan.ForReview(ctx, j.cfg, c.logf)
	if err != nil {
		return nil, nil, err
	}
	in, err := c.agentInput(j, pr)
	if err != nil {
		return nil, pr.Repo, err
	}
	client, err := llm.New(j.llm, llm.Options{Logf: c.logf})
	if err != nil {
		return nil, pr.Repo, usagef("%w", err)
	}
	a := agent.New(agent.Config{Model: client.Model(), Progress: c.Stderr, Heartbeat: c.heartbeat, ContextTokens: j.llm.Context}, client, j.reg)
	m := &conversation.Material{Ask: a.Ask, Source: in.Source, Diffs: in.Diffs}
	for _, f := range pr.Change.Files {
		m.Files = append(m.Files, fmt.Sprintf("%s %s (+%d/-%d)", f.Status, f.Path(), f.Additions, f.Deletions))
	}
	return m, pr.Repo, nil
}

// heard is what people said that the run's poster honours (chatrun.Heard).
type heard = chatrun.Heard

// suppress applies what people said before the review is reported
// (chatrun.Hear): ignored findings are suppressed; while paused nothing
// is posted inline.
func (c *Command) suppress(ctx context.Context, j *job, rv *review.Review, set *rules.Set) heard {
	forge := func() conversation.Forge { return c.chatPoster(j) }
	return chatrun.Hear(ctx, forge, conversation.Settings(j.cfg.ChatSettings(false)), &j.env, &j.ci, rv, set, c.logf)
}

// chatPoster is the forge the run's poster reads the conversation from
// through the run's forge client; nil, said, when the run posts nothing
// or the forge cannot be built.
func (c *Command) chatPoster(j *job) conversation.Forge {
	var f conversation.Forge
	var err error
	what := "merge"
	switch {
	case c.gitlabPoster(j):
		f, err = gitlabchat.New(chatrun.GitLabOptions(j.env.GitLab, j.ci.PR, j.forge, c.sleep, c.logf))
	case c.githubPoster(j):
		what = "pull"
		f, err = chatrun.GitHubForge(j.env, j.ci.PR, j.cfg.GitHubLogin, j.forge, c.sleep, c.logf)
	default:
		return nil
	}
	if err != nil {
		c.logf("could not read the %s request's conversation: %v", what, err)
		return nil
	}
	return f
}

// githubPoster reports whether the run posts a GitHub review.
func (c *Command) githubPoster(j *job) bool {
	return posts(j, ci.PlatformGitHub, reportspec.KindGitHubReview) && j.env.GitHub.Token != "" && !j.ci.ReadOnly
}

// gitlabPoster reports whether the run posts a GitLab discussion.
func (c *Command) gitlabPoster(j *job) bool {
	return posts(j, ci.PlatformGitLab, reportspec.KindGitLabDiscussion) && j.env.GitLab.Token != ""
}

// posts reports whether the run has a pull or merge request on platform p
// and asks for the report of kind k.
func posts(j *job, p string, k reportspec.Kind) bool {
	return j.ci.Platform == p && j.ci.PR != 0 && slices.ContainsFunc(j.specs, func(s reportspec.Spec) bool { return s.Kind == k })
}
