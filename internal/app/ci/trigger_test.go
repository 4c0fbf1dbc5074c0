package ci

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const trigHead = "2222222222222222222222222222222222222222"

// A trigger pipeline with a note event reviews the merge request it names,
// configuration from the pipeline's own commit; a missing or malformed
// payload is an error that names TRIGGER_PAYLOAD. The payload names the
// merge request and nothing more (issue 29 item 3): its head, target
// branch and projects — here a forged same-project head — are never read;
// FromMergeRequest takes them from the API's answer.
func TestDetectGitLabNoteTrigger(t *testing.T) {
	dir := t.TempDir()
	write := func(s string) string {
		p := filepath.Join(dir, "payload")
		if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	g := GitLabEnv{CI: true, PipelineSource: "trigger", CommitSHA: "1111111111111111111111111111111111111111",
		TriggerPayload: write(`{"object_kind":"note","merge_request":{"iid":"5","target_branch":"release","source_project_id":42,` +
			`"target_project_id":42,"last_commit":{"id":"` + trigHead + `"}}}`)}
	c, err := Detect(Env{GitLab: g})
	if err != nil || c.PR != 5 || !c.NeedMR || c.To != "" || c.From != "" || c.ConfigRef != g.CommitSHA || c.UntrustedHead != "" || c.Event != "trigger" {
		t.Errorf("context %+v, %v", c, err)
	}
	apiHead := strings.Repeat("3", 40)
	err = c.FromMergeRequest(MergeRequest{HeadSHA: apiHead, TargetBranch: "main", State: "opened", SourceProjectID: 77, TargetProjectID: 42})
	if err != nil || c.To != apiHead || c.From != "origin/main" || c.ConfigRef != g.CommitSHA || c.UntrustedHead == "" || c.NeedMR {
		t.Errorf("from the API: %+v, %v", c, err)
	}
	if err := c.FromMergeRequest(MergeRequest{TargetBranch: "main"}); err == nil {
		t.Error("a merge request without diff_refs was accepted")
	}
	g.TriggerPayload = write("{oops")
	if _, err := Detect(Env{GitLab: g}); err == nil || !strings.Contains(err.Error(), "TRIGGER_PAYLOAD") {
		t.Errorf("malformed: %v", err)
	}
	g.TriggerPayload = filepath.Join(dir, "absent")
	if _, err := Detect(Env{GitLab: g}); err == nil || !strings.Contains(err.Error(), "TRIGGER_PAYLOAD") {
		t.Errorf("missing: %v", err)
	}
	g.TriggerPayload = ""
	if c, _ := Detect(Env{GitLab: g}); c.Event != "trigger" || c.PR != 0 {
		t.Errorf("a trigger without a payload is an ordinary pipeline: %+v", c)
	}
}
