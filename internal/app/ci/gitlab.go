package ci

import (
	"fmt"

	"github.com/ocr-ci/ocr/review/reportspec"
)

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
		ctx.UntrustedHead = g.untrustedHead()
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

// untrustedHead says why a merge request's head is untrusted: its source
// project is not the target project (a fork); "" when it is the same.
func (g GitLabEnv) untrustedHead() string {
	if g.SourceProjectID == "" || g.MRProjectID == "" || g.SourceProjectID == g.MRProjectID {
		return ""
	}
	from := g.SourceProjectID
	if g.SourceProjectPath != "" {
		from = g.SourceProjectPath
	}
	return fmt.Sprintf("fork merge request: head from project %s", from)
}
