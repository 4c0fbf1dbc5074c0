package ci

import (
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/ocr-ci/ocr/review/reportspec"
)

// The default reports of a CI context; --sarif-file replaces DefaultSARIF's
// path (see the runner's applyContext).
var (
	// DefaultSARIF is the SARIF report of the CI defaults.
	DefaultSARIF       = reportspec.Spec{Kind: reportspec.KindSARIF, Path: reportspec.DefaultSARIFPath}
	defaultCodeQuality = reportspec.Spec{Kind: reportspec.KindCodeQuality, Path: reportspec.DefaultCodeQualityPath}
	githubReview       = reportspec.Spec{Kind: reportspec.KindGitHubReview}
	githubAnnotations  = reportspec.Spec{Kind: reportspec.KindGitHubAnnotations}
	githubSummary      = reportspec.Spec{Kind: reportspec.KindGitHubSummary}
	gitlabDiscussion   = reportspec.Spec{Kind: reportspec.KindGitLabDiscussion}
	textReport         = reportspec.Spec{Kind: reportspec.KindText}
)

// Platforms ocr recognises.
const (
	PlatformGitHub = "github"
	PlatformGitLab = "gitlab"
	PlatformLocal  = "local"
)

// Context is what ocr detected about where it runs and what it should review.
type Context struct {
	Platform string
	// Event is the GitHub event name or the GitLab pipeline source.
	Event string
	// From/To or Commit select the review range ("" when nothing was detected).
	From, To, Commit string
	// Owner and Name identify the GitHub repository (owner/name).
	Owner, Name string
	// PR is the pull request or merge request number (0 when none).
	PR int
	// HeadSHA is the PR/MR head commit that comments are attached to.
	HeadSHA string
	// Fork is true for a pull request from another repository: its token is read-only.
	Fork bool
	// FromIsGuess is true when From is the default branch of a new branch's
	// push, which a shallow clone may lack.
	FromIsGuess bool
	// NeedPR is true when the event names a PR whose SHAs must be fetched (issue_comment).
	NeedPR bool
	// ConfigRef is the trusted ref that .ocr/ configuration is read from.
	ConfigRef string
	// Reports are the default reports for this context.
	Reports []reportspec.Spec
	// Why explains the decision in one line (printed by `ocr env`).
	Why string
}

// zeroSHA is GitHub's "before" of a push that created the branch.
const zeroSHA = "0000000000000000000000000000000000000000"

// Detect decides the context from the CI environment.
func Detect(e Env) (Context, error) {
	switch {
	case e.GitHub.Actions:
		return detectGitHub(e.GitHub)
	case e.GitLab.CI && IsGitLabNoteTrigger(e.GitLab):
		return detectGitLabTrigger(e.GitLab)
	case e.GitLab.CI:
		return detectGitLab(e.GitLab), nil
	}
	return Context{Platform: PlatformLocal, Reports: []reportspec.Spec{textReport}, Why: "not in CI: the work tree is reviewed unless a range or commit is given"}, nil
}

// githubEvent is the subset of GitHub's webhook payloads ocr reads.
// https://docs.github.com/webhooks/webhook-events-and-payloads
type githubEvent struct {
	Before      string    `json:"before"`
	After       string    `json:"after"`
	PullRequest *githubPR `json:"pull_request"`
	Issue       *struct {
		Number      int             `json:"number"`
		PullRequest json.RawMessage `json:"pull_request"`
	} `json:"issue"`
	WorkflowRun *githubWorkflowRun `json:"workflow_run"`
	Repository  struct {
		FullName      string `json:"full_name"`
		DefaultBranch string `json:"default_branch"`
	} `json:"repository"`
}

// githubWorkflowRun is the run that triggered a workflow_run event.
// https://docs.github.com/webhooks/webhook-events-and-payloads#workflow_run
type githubWorkflowRun struct {
	HeadSHA      string     `json:"head_sha"`
	PullRequests []githubPR `json:"pull_requests"`
	// Event is what triggered that run: "pull_request" for a pull
	// request's run, whose head the pull request's author wrote.
	Event          string `json:"event"`
	HeadRepository struct {
		FullName string `json:"full_name"`
	} `json:"head_repository"`
	Repository struct {
		FullName string `json:"full_name"`
	} `json:"repository"`
}

// fromPullRequest reports whether the run's head comes from a pull
// request, a fork's included: GitHub leaves pull_requests empty for a
// fork, so the event and the head repository tell.
func (wr githubWorkflowRun) fromPullRequest(repo string) bool {
	if strings.HasPrefix(wr.Event, "pull_request") {
		return true
	}
	head := wr.HeadRepository.FullName
	base := cmp.Or(wr.Repository.FullName, repo)
	return head != "" && base != "" && !strings.EqualFold(head, base)
}

type githubPR struct {
	Number int `json:"number"`
	Base   struct {
		SHA  string `json:"sha"`
		Repo struct {
			FullName string `json:"full_name"`
		} `json:"repo"`
	} `json:"base"`
	Head struct {
		SHA  string `json:"sha"`
		Repo struct {
			FullName string `json:"full_name"`
		} `json:"repo"`
	} `json:"head"`
}

func detectGitHub(g GitHubEnv) (Context, error) {
	ctx := Context{Platform: PlatformGitHub, Event: g.EventName}
	ctx.Owner, ctx.Name, _ = strings.Cut(g.Repository, "/")
	var ev githubEvent
	if g.EventPath != "" {
		data, err := os.ReadFile(g.EventPath)
		if err != nil {
			return ctx, fmt.Errorf("could not read the GitHub event payload %s (GITHUB_EVENT_PATH): %w", g.EventPath, err)
		}
		if err := json.Unmarshal(data, &ev); err != nil {
			return ctx, fmt.Errorf("could not parse the GitHub event payload %s (GITHUB_EVENT_PATH): %w", g.EventPath, err)
		}
	}
	switch g.EventName {
	case "pull_request", "pull_request_target":
		if ev.PullRequest != nil {
			ctx.fromPR(*ev.PullRequest, g.EventName)
		}
	case "pull_request_review_comment":
		// A comment in a review thread (the conversation): "/ocr review"
		// there reviews the pull request the payload names.
		if ev.PullRequest != nil {
			ctx.fromPR(*ev.PullRequest, g.EventName)
		}
	case "issue_comment":
		if ev.Issue != nil && len(ev.Issue.PullRequest) > 0 {
			ctx.PR, ctx.NeedPR = ev.Issue.Number, true
			ctx.Reports = []reportspec.Spec{githubReview, githubAnnotations, githubSummary, DefaultSARIF}
			ctx.Why = fmt.Sprintf("comment on pull request #%d: its SHAs are read from the API", ctx.PR)
		}
	case "workflow_run":
		if err := ctx.fromWorkflowRun(ev, g); err != nil {
			return ctx, err
		}
	case "push":
		ctx.fromPush(ev, g.SHA)
	}
	if ctx.From == "" && ctx.Commit == "" && !ctx.NeedPR && g.SHA != "" {
		ctx.Commit, ctx.Why = g.SHA, g.EventName+": the commit GITHUB_SHA"
	}
	if ctx.Reports == nil {
		ctx.Reports = []reportspec.Spec{githubAnnotations, githubSummary, DefaultSARIF}
	}
	return ctx, nil
}

// fromWorkflowRun reviews the triggering run's pull request, or its head
// commit. A run for a pull request (from a fork, pull_requests is empty)
// is untrusted: configuration is read from the default branch, the commit
// this workflow runs at (GITHUB_SHA), never from the head.
func (c *Context) fromWorkflowRun(ev githubEvent, g GitHubEnv) error {
	wr := ev.WorkflowRun
	switch {
	case wr == nil:
		return nil
	case len(wr.PullRequests) > 0:
		c.fromPR(wr.PullRequests[0], "workflow_run")
		return nil
	}
	c.Commit, c.Why = wr.HeadSHA, "workflow_run without a pull request: its head commit"
	if !wr.fromPullRequest(ev.Repository.FullName) {
		return nil
	}
	c.ConfigRef = g.SHA
	if c.ConfigRef == "" && ev.Repository.DefaultBranch != "" {
		c.ConfigRef = "origin/" + ev.Repository.DefaultBranch
	}
	if c.ConfigRef == "" {
		return fmt.Errorf("workflow_run of a pull request (%s from %s): its head is untrusted, and neither GITHUB_SHA "+
			"nor the repository's default branch names the trusted configuration: set OCR_CONFIG_REF", wr.Event,
			cmp.Or(wr.HeadRepository.FullName, "?"))
	}
	c.Why = fmt.Sprintf("workflow_run of a pull request (%s, head repository %s): its head commit, configuration from %s",
		cmp.Or(wr.Event, "?"), cmp.Or(wr.HeadRepository.FullName, "?"), c.ConfigRef)
	return nil
}

// fromPR reviews merge-base(base, head)..head — never GITHUB_SHA, which is a
// synthetic merge commit GitHub refuses comments on.
func (c *Context) fromPR(pr githubPR, event string) {
	c.PR, c.From, c.To, c.HeadSHA = pr.Number, pr.Base.SHA, pr.Head.SHA, pr.Head.SHA
	c.ConfigRef = pr.Base.SHA
	c.Fork = pr.Head.Repo.FullName != "" && pr.Head.Repo.FullName != pr.Base.Repo.FullName && event == "pull_request"
	c.Reports = []reportspec.Spec{githubReview, githubAnnotations, githubSummary, DefaultSARIF}
	c.Why = fmt.Sprintf("%s #%d: merge-base(base, head)..head", event, pr.Number)
	if c.Fork {
		c.Why += " (fork: read-only token, no review is posted)"
	}
}

// fromPush reviews before..after; a new branch (all-zero before) is reviewed
// against the default branch.
func (c *Context) fromPush(ev githubEvent, sha string) {
	after := ev.After
	if after == "" {
		after = sha
	}
	switch {
	case ev.Before == "" || after == "":
		return
	case ev.Before == zeroSHA:
		if ev.Repository.DefaultBranch == "" {
			return
		}
		c.From, c.To, c.FromIsGuess = "origin/"+ev.Repository.DefaultBranch, after, true
		c.Why = "push of a new branch: its commits against " + c.From
	default:
		c.From, c.To, c.Why = ev.Before, after, "push: before..after"
	}
	c.ConfigRef = c.From
}

func detectGitLab(g GitLabEnv) Context {
	ctx := Context{Platform: PlatformGitLab, Event: g.PipelineSource}
	if g.MRIID > 0 && g.DiffBaseSHA != "" {
		head := g.CommitSHA
		if g.SourceBranchSHA != "" {
			// merged-results pipelines: CI_COMMIT_SHA is a temporary merge commit.
			head = g.SourceBranchSHA
		}
		ctx.PR, ctx.From, ctx.To, ctx.HeadSHA, ctx.ConfigRef = g.MRIID, g.DiffBaseSHA, head, head, g.DiffBaseSHA
		ctx.Reports = []reportspec.Spec{gitlabDiscussion, defaultCodeQuality}
		ctx.Why = fmt.Sprintf("merge request !%d: merge-base..head", g.MRIID)
		return ctx
	}
	ctx.Reports = []reportspec.Spec{defaultCodeQuality, textReport}
	switch {
	case g.BeforeSHA != "" && g.BeforeSHA != zeroSHA && g.CommitSHA != "":
		ctx.From, ctx.To, ctx.ConfigRef, ctx.Why = g.BeforeSHA, g.CommitSHA, g.BeforeSHA, "branch pipeline: CI_COMMIT_BEFORE_SHA..CI_COMMIT_SHA"
	case g.CommitSHA != "":
		ctx.Commit, ctx.Why = g.CommitSHA, "pipeline without a previous commit: CI_COMMIT_SHA against its parent"
	}
	return ctx
}
