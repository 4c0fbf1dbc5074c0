package ci

import (
	"cmp"
	"encoding/json"
	"fmt"
	"os"

	"github.com/ocr-ci/ocr/internal/infra/gitlabapi"
	"github.com/ocr-ci/ocr/review/reportspec"
)

// IsGitLabNoteTrigger reports whether the pipeline was started by a
// project webhook through the pipeline trigger endpoint: the conversation
// on GitLab (CI_PIPELINE_SOURCE=trigger with TRIGGER_PAYLOAD).
func IsGitLabNoteTrigger(g GitLabEnv) bool {
	return g.PipelineSource == "trigger" && g.TriggerPayload != ""
}

// triggerMR is all ocr reads of a note event's merge_request: which one
// (its IID, a number or a string). Everything else comes from the API.
// https://docs.gitlab.com/user/project/integrations/webhook_events/#comment-on-a-merge-request
type triggerMR struct {
	IID gitlabapi.Int `json:"iid"`
}

// ReadTriggerPayload reads the file TRIGGER_PAYLOAD names; a missing or
// unreadable file is a setup error the message explains.
func ReadTriggerPayload(g GitLabEnv) ([]byte, error) {
	data, err := os.ReadFile(g.TriggerPayload)
	if err != nil {
		return nil, fmt.Errorf("could not read the webhook payload %s (TRIGGER_PAYLOAD): %w; a trigger pipeline started by "+
			"a project webhook gets it as a file variable (docs/gitlab.md, Talking to ocr)", g.TriggerPayload, err)
	}
	if !json.Valid(data) {
		return nil, fmt.Errorf("the webhook payload %s (TRIGGER_PAYLOAD) is not JSON: is the webhook's URL the pipeline "+
			"trigger endpoint, with Comments events?", g.TriggerPayload)
	}
	return data, nil
}

// detectGitLabTrigger reads which merge request a note event is on; the
// payload names the project, the merge request and the note, nothing
// more (a stale, retried or forged one must not choose what is reviewed).
// NeedMR asks the caller to read the head, the target branch, the
// projects and the state from the API (FromMergeRequest). The pipeline
// runs at the ref of the trigger URL (the default branch), not at the
// merge request's head: configuration is read from that commit (trusted);
// the head is read through git by SHA and never checked out.
func detectGitLabTrigger(g GitLabEnv) (Context, error) {
	ctx := Context{Platform: PlatformGitLab, Event: "trigger", Reports: []reportspec.Spec{gitlabDiscussion, defaultCodeQuality}}
	data, err := ReadTriggerPayload(g)
	if err != nil {
		return ctx, err
	}
	var p struct {
		ObjectKind   string     `json:"object_kind"`
		MergeRequest *triggerMR `json:"merge_request"`
	}
	if err := json.Unmarshal(data, &p); err != nil {
		return ctx, fmt.Errorf("could not read the webhook payload %s (TRIGGER_PAYLOAD): %w", g.TriggerPayload, err)
	}
	mr := p.MergeRequest
	if p.ObjectKind != "note" || mr == nil {
		ctx.Why = fmt.Sprintf("trigger pipeline with a %s event that is not a note on a merge request", cmp.Or(p.ObjectKind, "?"))
		return ctx, nil
	}
	iid := int(mr.IID)
	if iid <= 0 {
		return ctx, fmt.Errorf("the note event in %s (TRIGGER_PAYLOAD) names no merge request iid", g.TriggerPayload)
	}
	ctx.PR, ctx.NeedMR = iid, true
	ctx.ConfigRef = g.CommitSHA
	if ctx.ConfigRef == "" && g.DefaultBranch != "" {
		ctx.ConfigRef = "origin/" + g.DefaultBranch
	}
	ctx.Why = fmt.Sprintf("note on merge request !%d (trigger pipeline): its refs are read from the API", iid)
	return ctx, nil
}

// MergeRequest is what the API says of a trigger's merge request.
type MergeRequest struct {
	HeadSHA, TargetBranch, State     string
	SourceProjectID, TargetProjectID int64
}

// FromMergeRequest fills the range of a trigger's merge request from what
// the API says of it (detectGitLabTrigger): target..head, configuration
// from the pipeline's commit, the fork caps when the source project is
// another or unknown.
func (c *Context) FromMergeRequest(m MergeRequest) error {
	if !isFullSHA(m.HeadSHA) || m.TargetBranch == "" {
		return fmt.Errorf("merge request !%d: the API names no head commit (diff_refs.head_sha) or target branch: "+
			"is its diff still being prepared? retry the note in a minute", c.PR)
	}
	c.To, c.HeadSHA, c.NeedMR = m.HeadSHA, m.HeadSHA, false
	c.From, c.FromIsGuess = "origin/"+m.TargetBranch, true
	c.ConfigRef = cmp.Or(c.ConfigRef, c.From)
	if m.SourceProjectID == 0 || m.SourceProjectID != m.TargetProjectID {
		c.UntrustedHead = fmt.Sprintf("fork merge request: source project %d, target project %d", m.SourceProjectID, m.TargetProjectID)
	}
	c.Why = fmt.Sprintf("note on merge request !%d (trigger pipeline, %s): %s...head, configuration from %s",
		c.PR, cmp.Or(m.State, "?"), c.From, c.ConfigRef)
	return nil
}

func isFullSHA(s string) bool {
	if len(s) != 40 {
		return false
	}
	for _, c := range s {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}
