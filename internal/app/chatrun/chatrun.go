// Package chatrun wires a comment event to the conversation package: a
// GitHub issue_comment or pull_request_review_comment, or the note event of
// a GitLab trigger pipeline, is triaged, and the handler answers it with
// the forge of its platform and the material the runner loads on demand;
// and before a review is posted, what people said on the pull or merge
// request (pause, ignore, 👎) is applied to it (Hear).
package chatrun

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/ocr-ci/ocr/conversation"
	"github.com/ocr-ci/ocr/conversation/githubchat"
	"github.com/ocr-ci/ocr/internal/app/ci"
	"github.com/ocr-ci/ocr/internal/app/cli"
	"github.com/ocr-ci/ocr/internal/app/config"
	"github.com/ocr-ci/ocr/internal/app/plan"
	"github.com/ocr-ci/ocr/internal/infra/git"
	"github.com/ocr-ci/ocr/reporters/github"
)

// Options are the runner's helpers a comment event is handled with.
type Options struct {
	Lookup config.Lookup // the process environment
	Stderr io.Writer     // where GitHub's mask commands go
	Logf   func(format string, args ...any)
	Sleep  func(ctx context.Context, d time.Duration) error // the forges' waits; nil: real ones
	// Fail prints an error and returns its exit code; ExitCode maps the
	// handler's error to one without printing (it logged it).
	Fail     func(error) int
	ExitCode func(error) int
	// Material loads what an answer reads (the pull request's range, its
	// repository, the agent); the repository is closed when the event is done.
	Material func(ctx context.Context, cfg *config.Config) (*conversation.Material, *git.Repo, error)
}

// usagef returns a usage error (exit 2).
func usagef(format string, args ...any) error {
	return &cli.UsageError{Err: fmt.Errorf(format, args...)}
}

// Converse handles a GitHub comment event or a GitLab note event
// (gitlab.go) with the conversation package. done is false when the run
// goes on as a review: not a comment event, or "/ocr review" by a trusted
// author.
func Converse(ctx context.Context, o Options, cfg *config.Config) (code int, done bool) {
	env, err := ci.Load(o.Lookup)
	if err == nil && !env.GitHub.Actions && env.GitLab.CI && ci.IsGitLabNoteTrigger(env.GitLab) {
		return converseGitLab(ctx, o, cfg, env.GitLab)
	}
	if err != nil || !env.GitHub.Actions || !githubchat.IsCommentEvent(env.GitHub.EventName) {
		return 0, false
	}
	data, err := os.ReadFile(env.GitHub.EventPath)
	if err != nil {
		return o.Fail(usagef("could not read the GitHub event payload %s (GITHUB_EVENT_PATH): %w", env.GitHub.EventPath, err)), true
	}
	ev, err := githubchat.ParseEvent(env.GitHub.EventName, data)
	if err != nil {
		return o.Fail(usagef("%w", err)), true
	}
	if _, why := conversation.Triage(ev, conversation.Settings(cfg.ChatSettings(false))); why != "" {
		o.Logf("nothing to do: %s", why) // the one line such a comment costs
		return 0, true
	}
	if err := github.Mask(o.Stderr, secrets(o.Lookup, env)...); err != nil {
		return o.Fail(err), true
	}
	o.Logf("%s by %s on pull request #%d", env.GitHub.EventName, ev.Comment.Author.Login, ev.PR)
	ctx, cancel := context.WithTimeout(ctx, cfg.Timeout)
	defer cancel()
	f, err := GitHubForge(env, ev.PR, cfg.GitHubLogin, nil, o.Sleep, o.Logf)
	if err != nil {
		return o.Fail(err), true
	}
	h, closeRepo := newHandler(o, cfg, f)
	defer closeRepo()
	out := h.Handle(ctx, ev)
	return o.ExitCode(out.Err), !out.Review
}

// newHandler wires the handler on forge f: the material of an answer is
// loaded on demand, and done closes its repository.
func newHandler(o Options, cfg *config.Config, f conversation.Forge) (h *conversation.Handler, done func()) {
	var repo *git.Repo
	h = &conversation.Handler{Forge: f, Settings: conversation.Settings(cfg.ChatSettings(false)), ForkSettings: conversation.Settings(cfg.ChatSettings(true)),
		Language: cfg.Language, Logf: o.Logf, Record: stepSummary(o),
		Material: func(ctx context.Context, _ bool) (*conversation.Material, error) {
			m, r, err := o.Material(ctx, cfg)
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
func stepSummary(o Options) func(string) {
	path, ok := o.Lookup("GITHUB_STEP_SUMMARY")
	if !ok || path == "" {
		return nil
	}
	return func(md string) {
		if err := github.AppendSummary(path, md); err != nil {
			o.Logf("could not write the answer to the step summary: %v", err)
		}
	}
}

// secrets are the values to mask before anything is printed: the GitHub
// token and the LLM's (as the runner's job masks them), read before the
// job is.
func secrets(lookup config.Lookup, env ci.Env) []string {
	out := []string{env.GitHub.Token}
	if l, err := config.LoadLLM(lookup); err == nil {
		out = append(out, l.APIToken())
		for _, v := range l.ExtraHeaders {
			out = append(out, v)
		}
	}
	return out
}
