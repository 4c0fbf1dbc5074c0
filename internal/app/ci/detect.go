package ci

import "github.com/ocr-ci/ocr/review/reportspec"

// The default reports of a CI context; --sarif-file replaces DefaultSARIF's
// path (see setup.ApplyContext).
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
	// UntrustedHead says why the head's author is not trusted ("" when
	// the head is trusted): a pull or merge request from another
	// repository. The lower caps apply (config.Config.ForkCaps).
	UntrustedHead string
	// ReadOnly is true when the event's token cannot write: a fork's
	// pull request under pull_request. Nothing is posted then. A
	// pull_request_target or workflow_run from a fork has an untrusted
	// head but a token that writes.
	ReadOnly bool
	// FromIsGuess is true when From is the default branch of a new branch's
	// push, which a shallow clone may lack.
	FromIsGuess bool
	// NeedPR is true when the event names a PR whose SHAs must be fetched (issue_comment).
	NeedPR bool
	// NeedMR is true when a GitLab trigger's note names a merge request
	// whose refs must be read from the API (FromMergeRequest).
	NeedMR bool
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
