package runner

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/internal/testkit/fakes/gitlabfake"
	"github.com/ocr-ci/ocr/internal/testkit/llmtest"
	"github.com/ocr-ci/ocr/reporters"
)

// triggerJob makes the next run a trigger pipeline started by the note
// webhook: checked out at the default branch, the note event in the file
// TRIGGER_PAYLOAD names.
func triggerJob(t *testing.T, p prRepo, note gitlabfake.Note, discussion string) string {
	t.Helper()
	body, _ := json.Marshal(note.Body)
	path := filepath.Join(t.TempDir(), "TRIGGER_PAYLOAD")
	writeEvent(t, modulePath("conversation", "testdata", "events", "gitlab-diffnote-reply.json"), path,
		map[string]any{"ID": note.ID, "Discussion": discussion, "Body": string(body), "Base": p.base, "Head": p.head, "SourceProject": 42})
	setenv(t, map[string]string{"CI_PIPELINE_SOURCE": "trigger", "TRIGGER_PAYLOAD": path, "CI_COMMIT_SHA": p.base,
		"CI_MERGE_REQUEST_IID": "", "CI_MERGE_REQUEST_DIFF_BASE_SHA": ""})
	return path
}

// TestE2EGitLabConversation: a merge request pipeline posts the review;
// then a Developer's question in ocr's discussion starts a trigger
// pipeline (checked out at main), which answers in that discussion,
// reading the head by SHA. A missing or malformed payload exits 2.
func TestE2EGitLabConversation(t *testing.T) {
	t.Parallel()
	p := newPRRepo(t)
	gl := gitlabfake.New(t, gitlabfake.Config{Diff: prDiff(p.testRepo, p.base, p.head), Base: p.root, Start: p.base, Head: p.head})
	gl.SetMergeRequest(gitlabfake.MergeRequest{Title: "store: simplify Get", Author: gitlabfake.Human("pr-author")})
	llm := llmtest.New(t, storeScript(1), llmtest.Script{Name: "answer", Match: []string{"You answer questions about a pull request", "can k be missing"},
		Answers: []llmtest.Answer{
			llmtest.Calls(llmtest.Tool("file_read", map[string]any{"file_path": "store/store.go"})),
			llmtest.Text("Yes: `m[k]` is nil for a missing k, and line 6 dereferences it."),
		}})
	gitlabJob(t, p, gl)
	useLLM(t, llm)
	if code, _, errs := run(t, "review", "--repo", p.dir, "--no-filter"); code != reporters.ExitOK {
		t.Fatalf("review: exit %d\n%s", code, errs)
	}
	var disc string
	for _, d := range gl.Discussions() {
		if !d.IndividualNote && strings.Contains(d.Notes[0].Body, "ocr:fp=") {
			disc = d.ID
			break
		}
	}
	alice := gitlabfake.Human("alice")
	gl.AddMember(gitlabfake.Member{User: alice, AccessLevel: 30, Inherited: true})
	q := gl.ReplyAs(disc, alice, "@ocr can k be missing here?")
	p.git("checkout", "-q", "main") // the trigger's ref, not the merge request's head
	p.git("update-ref", "refs/remotes/origin/main", p.base)
	payload := triggerJob(t, p, q, disc)
	before := llm.Count()
	code, _, errs := run(t, "review", "--repo", p.dir)
	var answer *gitlabfake.Note
	for _, d := range gl.Discussions() {
		if d.ID == disc {
			answer = d.Notes[len(d.Notes)-1]
		}
	}
	if code != 0 || answer == nil || !strings.Contains(answer.Body, "line 6 dereferences it") || llm.Count()-before != 2 {
		t.Fatalf("answer: exit %d, %d model requests, last note %+v\n%s", code, llm.Count()-before, answer, errs)
	}
	if p.git("rev-parse", "HEAD") != p.base {
		t.Errorf("the merge request's head was checked out")
	}
	t.Logf("answer run stderr:\n%s", errs)

	for name, content := range map[string]string{"malformed": "{not json", "missing": ""} {
		if content == "" {
			if err := os.Remove(payload); err != nil {
				t.Fatal(err)
			}
		} else if err := os.WriteFile(payload, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		code, _, errs := run(t, "review", "--repo", p.dir)
		if code != reporters.ExitUsage || !strings.Contains(errs, "TRIGGER_PAYLOAD") {
			t.Errorf("%s payload: exit %d\n%s", name, code, errs)
		}
		t.Logf("%s payload stderr:\n%s", name, errs)
	}
}

// TestE2EGitLabTriggerPayloadDecidesNothing (issue 29 item 3): a stale or
// forged note event names another head commit and says the merge request
// is the project's own; the run reads the head (diff_refs), the target
// branch and the projects from the API, so the answer is about the
// merge request's real head (the fork caps of such a run:
// TestDetectGitLabNoteTrigger in internal/app/ci).
func TestE2EGitLabTriggerPayloadDecidesNothing(t *testing.T) {
	t.Parallel()
	p := newPRRepo(t)
	gl := gitlabfake.New(t, gitlabfake.Config{Diff: prDiff(p.testRepo, p.base, p.head), Base: p.root, Start: p.base, Head: p.head})
	gl.SetMergeRequest(gitlabfake.MergeRequest{Title: "store: simplify Get", Author: gitlabfake.Human("outsider"), SourceProject: 77})
	llm := llmtest.New(t, llmtest.Script{Name: "answer", Match: []string{"You answer questions about a pull request", "can k be missing"},
		Answers: []llmtest.Answer{llmtest.Text("Yes.")}})
	alice := gitlabfake.Human("alice")
	gl.AddMember(gitlabfake.Member{User: alice, AccessLevel: 30})
	disc := gl.AddNote(alice, "@ocr can k be missing here?")
	q := gl.Discussions()[0].Notes[0]
	gitlabJob(t, p, gl)
	useLLM(t, llm)
	p.git("checkout", "-q", "main")
	p.git("update-ref", "refs/remotes/origin/main", p.base)
	forged := strings.Repeat("f", 40)
	path := filepath.Join(t.TempDir(), "TRIGGER_PAYLOAD")
	body, _ := json.Marshal(q.Body)
	writeEvent(t, modulePath("conversation", "testdata", "events", "gitlab-mr-note.json"), path,
		map[string]any{"ID": q.ID, "Discussion": disc, "Body": string(body), "Base": p.base, "Head": forged, "SourceProject": 42})
	setenv(t, map[string]string{"CI_PIPELINE_SOURCE": "trigger", "TRIGGER_PAYLOAD": path, "CI_COMMIT_SHA": p.base,
		"CI_MERGE_REQUEST_IID": "", "CI_MERGE_REQUEST_DIFF_BASE_SHA": ""})
	code, _, errs := run(t, "review", "--repo", p.dir)
	if code != 0 || llm.Count() != 1 {
		t.Fatalf("exit %d, %d model requests\n%s", code, llm.Count(), errs)
	}
	if strings.Contains(errs, forged) {
		t.Errorf("the payload's head was read:\n%s", errs)
	}
	if first := llm.Requests()[0].FirstUser(); !strings.Contains(first, "store/store.go") {
		t.Errorf("the answer does not see the merge request's change (API head %s):\n%s", p.head, first)
	}
	t.Logf("stderr:\n%s", errs)
}
