package runner

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strings"

	"github.com/ocr-ci/ocr/agent"
	"github.com/ocr-ci/ocr/conversation"
	"github.com/ocr-ci/ocr/conversation/githubchat"
	"github.com/ocr-ci/ocr/internal/app/ci"
	"github.com/ocr-ci/ocr/internal/app/config"
	"github.com/ocr-ci/ocr/internal/app/plan"
	"github.com/ocr-ci/ocr/internal/domain/rules"
	"github.com/ocr-ci/ocr/internal/infra/git"
	"github.com/ocr-ci/ocr/internal/infra/llm"
	"github.com/ocr-ci/ocr/reporters/github"
	"github.com/ocr-ci/ocr/review"
	"github.com/ocr-ci/ocr/review/reportspec"
)

// converse handles a GitHub comment event (issue_comment,
// pull_request_review_comment) or a GitLab note event (a trigger pipeline,
// conversation_gitlab.go) with the conversation package. done is
// false when the run goes on as a review: not a comment event, or
// "/ocr review" by a trusted author.
func (c *Command) converse(ctx context.Context, cfg *config.Config) (code int, done bool) {
	env, err := ci.Load(c.lookup)
	if err == nil && !env.GitHub.Actions && env.GitLab.CI && ci.IsGitLabNoteTrigger(env.GitLab) {
		return c.converseGitLab(ctx, cfg, env.GitLab)
	}
	if err != nil || !env.GitHub.Actions || !githubchat.IsCommentEvent(env.GitHub.EventName) {
		return 0, false
	}
	data, err := os.ReadFile(env.GitHub.EventPath)
	if err != nil {
		return c.fail(usagef("could not read the GitHub event payload %s (GITHUB_EVENT_PATH): %w", env.GitHub.EventPath, err)), true
	}
	ev, err := githubchat.ParseEvent(env.GitHub.EventName, data)
	if err != nil {
		return c.fail(usagef("%w", err)), true
	}
	if _, why := conversation.Triage(ev, conversation.Settings(cfg.ChatSettings(false))); why != "" {
		c.logf("nothing to do: %s", why) // the one line such a comment costs
		return 0, true
	}
	if err := github.Mask(c.Stderr, chatSecrets(c.lookup, env)...); err != nil {
		return c.fail(err), true
	}
	c.logf("%s by %s on pull request #%d", env.GitHub.EventName, ev.Comment.Author.Login, ev.PR)
	ctx, cancel := context.WithTimeout(ctx, cfg.Timeout)
	defer cancel()
	h, closeRepo, err := c.chatHandler(cfg, env, ev.PR)
	if err != nil {
		return c.fail(err), true
	}
	defer closeRepo()
	out := h.Handle(ctx, ev)
	return exitCode(out.Err), !out.Review
}

// chatHandler wires the handler: the GitHub forge (ocr recognised by the
// review poster's rule, githubapi.Account) and the material of an
// answer, loaded on demand.
func (c *Command) chatHandler(cfg *config.Config, env ci.Env, pr int) (*conversation.Handler, func(), error) {
	f, err := c.chatForge(env, pr, cfg.GitHubLogin, nil)
	if err != nil {
		return nil, nil, err
	}
	h, done := c.newChatHandler(cfg, f)
	return h, done, nil
}

// newChatHandler wires the handler on forge f: the material of an answer
// is loaded on demand, and done closes its repository.
func (c *Command) newChatHandler(cfg *config.Config, f conversation.Forge) (h *conversation.Handler, done func()) {
	var repo *git.Repo
	h = &conversation.Handler{Forge: f, Settings: conversation.Settings(cfg.ChatSettings(false)), ForkSettings: conversation.Settings(cfg.ChatSettings(true)),
		Language: cfg.Language, Logf: c.logf, Record: c.stepSummary(),
		Material: func(ctx context.Context, _ bool) (*conversation.Material, error) {
			m, r, err := c.chatMaterial(ctx, cfg)
			repo = r
			return m, err
		}}
	return h, func() {
		if repo != nil {
			plan.CloseRepo(repo)
		}
	}
}

// stepSummary appends Markdown to the job's step summary
// (GITHUB_STEP_SUMMARY); nil outside GitHub Actions. A failed write is
// said in the log: the answer is there too.
func (c *Command) stepSummary() func(string) {
	path, ok := c.lookup("GITHUB_STEP_SUMMARY")
	if !ok || path == "" {
		return nil
	}
	return func(md string) {
		if err := github.AppendSummary(path, md); err != nil {
			c.logf("could not write the answer to the step summary: %v", err)
		}
	}
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

// chatForge is the GitHub forge of pull request pr; botLogin is the
// account a bot token posts as (OCR_GITHUB_LOGIN); hc is the run's forge
// client (job.forge), nil for a default one.
func (c *Command) chatForge(env ci.Env, pr int, botLogin string, hc *http.Client) (*githubchat.Forge, error) {
	g := env.GitHub
	owner, name, _ := strings.Cut(g.Repository, "/")
	f, err := githubchat.New(githubchat.Options{Token: g.Token, BaseURL: g.APIURL, GraphQLURL: g.GraphQLURL, BotLogin: botLogin,
		Owner: owner, Repo: name, PR: pr, HTTPClient: hc, Sleep: c.sleep, Logf: c.logf})
	if err != nil {
		return nil, usagef("%w", err)
	}
	return f, nil
}

// heard is what people said on the pull or merge request that the run's
// poster honours: the fingerprints they ignored and, while ocr is paused,
// the pause note. suppress reads it and publish takes it, so nothing is
// posted before it was read.
type heard struct {
	ignored map[string]bool
	paused  string
}

// suppress applies what people said before the review is reported: the
// findings of the rule files' ignore lists and those ignored on the pull
// or merge request are marked suppressed (review.Review.Suppress: kept
// and marked in SARIF and JSON, not posted, not gated); while ocr is
// paused nothing is posted inline (conversation.ReadState). A run started
// by "/ocr review" posts even while paused: someone asked.
func (c *Command) suppress(ctx context.Context, j *job, rv *review.Review, set *rules.Set) heard {
	if n := rv.Suppress(set.Suppression); n > 0 {
		c.logf("%d finding(s) ignored by the rule file's ignore list: marked in the file reports, not posted, not counted by --fail-on", n)
	}
	f := c.chatPoster(j)
	if f == nil {
		return heard{}
	}
	chat := conversation.Settings(j.cfg.ChatSettings(false))
	s, err := conversation.ReadState(ctx, f)
	if err != nil {
		c.logf("could not read the pause and ignore commands (%v): reporting as if there were none", err)
		return heard{}
	}
	if n := rv.Suppress(s.Suppression); n > 0 {
		c.logf("%d finding(s) ignored on this pull request: marked in the file reports, not posted, not counted by --fail-on", n)
	}
	c.learn(ctx, f, chat.Trust, rv, s.Ignored)
	h := heard{ignored: s.Ignored}
	if s.Paused && !githubchat.IsCommentEvent(j.ci.Event) && !ci.IsGitLabNoteTrigger(j.env.GitLab) {
		h.paused = s.PausedNote(chat.Handle)
		c.logf("paused by %s on this pull request: nothing is posted inline; the summary says so", s.By)
	}
	return h
}

// chatPoster is the forge the run's poster reads the conversation from;
// nil when the run posts nothing.
func (c *Command) chatPoster(j *job) conversation.Forge {
	if c.gitlabPoster(j) {
		return c.gitlabForge(j)
	}
	if !c.githubPoster(j) {
		return nil
	}
	f, err := c.chatForge(j.env, j.ci.PR, j.cfg.GitHubLogin, j.forge)
	if err != nil {
		c.logf("could not read the pull request's conversation: %v", err)
		return nil
	}
	return f
}

// githubPoster reports whether the run posts a GitHub review.
func (c *Command) githubPoster(j *job) bool {
	return posts(j, ci.PlatformGitHub, reportspec.KindGitHubReview) && j.env.GitHub.Token != "" && !j.ci.ReadOnly
}

// posts reports whether the run has a pull or merge request on platform p
// and asks for the report of kind k.
func posts(j *job, p string, k reportspec.Kind) bool {
	return j.ci.Platform == p && j.ci.PR != 0 && slices.ContainsFunc(j.specs, func(s reportspec.Spec) bool { return s.Kind == k })
}

// chatSecrets are the values to mask before anything is printed: the
// GitHub token and the LLM's (see job.secrets), read before the job is.
func chatSecrets(lookup config.Lookup, env ci.Env) []string {
	out := []string{env.GitHub.Token}
	if l, err := config.LoadLLM(lookup); err == nil {
		out = append(out, l.APIToken())
		for _, v := range l.ExtraHeaders {
			out = append(out, v)
		}
	}
	return out
}
