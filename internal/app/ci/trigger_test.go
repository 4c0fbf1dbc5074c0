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
// payload is an error that names TRIGGER_PAYLOAD.
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
		TriggerPayload: write(`{"object_kind":"note","merge_request":{"iid":"5","target_branch":"main","source_project_id":77,` +
			`"target_project_id":42,"last_commit":{"id":"` + trigHead + `"}}}`)}
	c, err := Detect(Env{GitLab: g})
	if err != nil || c.PR != 5 || c.To != trigHead || c.From != "origin/main" || c.ConfigRef != g.CommitSHA || c.UntrustedHead == "" || c.Event != "trigger" {
		t.Errorf("context %+v, %v", c, err)
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
