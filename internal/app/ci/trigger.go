package ci

import (
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"strconv"

	"github.com/ocr-ci/ocr/review/reportspec"
)

// IsGitLabNoteTrigger reports whether the pipeline was started by a
// project webhook through the pipeline trigger endpoint: the conversation
// on GitLab (CI_PIPELINE_SOURCE=trigger with TRIGGER_PAYLOAD).
func IsGitLabNoteTrigger(g GitLabEnv) bool {
	return g.PipelineSource == "trigger" && g.TriggerPayload != ""
}

// triggerMR is the part of a note event's merge_request that names what
// to review; ids are read whether GitLab sends numbers or strings.
// https://docs.gitlab.com/user/project/integrations/webhook_events/#comment-on-a-merge-request
type triggerMR struct {
	IID             json.Number `json:"iid"`
	TargetBranch    string      `json:"target_branch"`
	SourceProjectID json.Number `json:"source_project_id"`
	TargetProjectID json.Number `json:"target_project_id"`
	LastCommit      struct {
		ID string `json:"id"`
	} `json:"last_commit"`
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

// detectGitLabTrigger reads the merge request of a note event. The
// pipeline runs at the ref of the trigger URL (the default branch), not
// at the merge request's head: configuration is read from that commit
// (trusted); the head is read through git by SHA and never checked out.
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
	iid, _ := strconv.Atoi(mr.IID.String())
	if iid <= 0 || !isFullSHA(mr.LastCommit.ID) || mr.TargetBranch == "" {
		return ctx, fmt.Errorf("the note event in %s (TRIGGER_PAYLOAD) names no merge request iid, head commit and target branch", g.TriggerPayload)
	}
	ctx.PR, ctx.To, ctx.HeadSHA = iid, mr.LastCommit.ID, mr.LastCommit.ID
	ctx.From, ctx.FromIsGuess = "origin/"+mr.TargetBranch, true
	ctx.ConfigRef = cmp.Or(g.CommitSHA, "origin/"+cmp.Or(g.DefaultBranch, mr.TargetBranch))
	if mr.SourceProjectID != "" && mr.SourceProjectID != mr.TargetProjectID {
		ctx.UntrustedHead = fmt.Sprintf("fork merge request: source project %s, target project %s", mr.SourceProjectID, mr.TargetProjectID)
	}
	ctx.Why = fmt.Sprintf("note on merge request !%d (trigger pipeline): %s...head, configuration from %s", iid, ctx.From, ctx.ConfigRef)
	return ctx, nil
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
