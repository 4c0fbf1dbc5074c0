package ci

import (
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/ocr-ci/ocr/review/reportspec"
)

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
	MergeGroup  *githubMergeGroup  `json:"merge_group"`
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
	return strings.HasPrefix(wr.Event, "pull_request") || wr.untrustedHead(repo) != ""
}

// untrustedHead says why the run's head is untrusted: it comes from
// another repository (a fork's pull request), or the run is a pull
// request's whose head repository GitHub no longer names (a deleted fork
// sends head_repository: null); "" when it does not.
func (wr githubWorkflowRun) untrustedHead(repo string) string {
	head := wr.HeadRepository.FullName
	base := cmp.Or(wr.Repository.FullName, repo)
	switch {
	case head == "" && (strings.HasPrefix(wr.Event, "pull_request") || len(wr.PullRequests) > 0):
		return fmt.Sprintf("workflow_run of a %s whose head repository is unknown (a deleted fork?)", cmp.Or(wr.Event, "pull request"))
	case head == "" || base == "" || strings.EqualFold(head, base):
		return ""
	}
	return fmt.Sprintf("workflow_run of a fork's %s: head from %s", cmp.Or(wr.Event, "run"), head)
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
	case "merge_group":
		ctx.fromMergeGroup(ev.MergeGroup)
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
		c.UntrustedHead = wr.untrustedHead(ev.Repository.FullName)
		return nil
	}
	c.Commit, c.Why = wr.HeadSHA, "workflow_run without a pull request: its head commit"
	c.UntrustedHead = wr.untrustedHead(ev.Repository.FullName)
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
// A head from another repository is untrusted whatever the event; only
// pull_request gives such a run a read-only token.
func (c *Context) fromPR(pr githubPR, event string) {
	c.PR, c.From, c.To, c.HeadSHA = pr.Number, pr.Base.SHA, pr.Head.SHA, pr.Head.SHA
	c.ConfigRef = pr.Base.SHA
	c.UntrustedHead = pr.untrustedHead(event)
	c.ReadOnly = c.UntrustedHead != "" && event == "pull_request"
	c.Reports = []reportspec.Spec{githubReview, githubAnnotations, githubSummary, DefaultSARIF}
	c.Why = fmt.Sprintf("%s #%d: merge-base(base, head)..head", event, pr.Number)
	if c.ReadOnly {
		c.Why += " (fork: read-only token, no review is posted)"
	}
}

// untrustedHead says why the pull request's head is untrusted: it comes
// from another repository, or from one GitHub no longer names (a deleted
// fork sends head.repo: null); "" when it does not.
func (pr githubPR) untrustedHead(event string) string {
	head, base := pr.Head.Repo.FullName, pr.Base.Repo.FullName
	switch {
	case head == "":
		return fmt.Sprintf("pull request under %s whose head repository is unknown (a deleted fork?)", event)
	case strings.EqualFold(head, base):
		return ""
	}
	return fmt.Sprintf("fork pull request under %s: head from %s", event, head)
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

// githubMergeGroup is a merge queue's group: the target branch (base) and
// the temporary branch that adds the queued pull requests to it (head).
// https://docs.github.com/webhooks/webhook-events-and-payloads#merge_group
type githubMergeGroup struct {
	HeadSHA string `json:"head_sha"`
	HeadRef string `json:"head_ref"`
	BaseSHA string `json:"base_sha"`
	BaseRef string `json:"base_ref"`
}

// fromMergeGroup reviews base_sha..head_sha, what the queue adds to the
// target branch, with configuration from base_sha: the head carries the
// queued pull requests' own .ocr/, base_sha is the target branch.
func (c *Context) fromMergeGroup(mg *githubMergeGroup) {
	if mg == nil || mg.BaseSHA == "" || mg.HeadSHA == "" {
		return
	}
	c.From, c.To, c.ConfigRef = mg.BaseSHA, mg.HeadSHA, mg.BaseSHA
	c.Why = fmt.Sprintf("merge_group %s: base_sha..head_sha, configuration from base_sha (%s)",
		cmp.Or(mg.HeadRef, "?"), cmp.Or(mg.BaseRef, "the target branch"))
}
