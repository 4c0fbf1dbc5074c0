package runner

import (
	"crypto/sha1"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/internal/testkit/fakes"
	"github.com/ocr-ci/ocr/internal/testkit/fakes/gitlabfake"
	"github.com/ocr-ci/ocr/internal/testkit/llmtest"
	"github.com/ocr-ci/ocr/reporters"
)

// rangeComments are findings on store/store.go: one on the two added lines
// 5–6 (a multi-line discussion) unless single, and one on added line 6.
func rangeComments(withRange bool) llmtest.Answer {
	cs := []map[string]string{{"content": "Dereferencing ptr panics when k is missing.", "existing_code": "return *ptr",
		"category": "bug", "severity": "high"}}
	if withRange {
		cs = append(cs, map[string]string{"content": "These two lines drop the nil check of the old version.",
			"existing_code": "\tptr := m[k]\n\treturn *ptr", "category": "bug", "severity": "medium"})
	}
	return llmtest.Calls(llmtest.Tool("code_comment", map[string]any{"comments": cs}), llmtest.Done())
}

// humanRangeNote is a person's multi-line comment on new lines 5–6 of
// store/store.go, written in the web UI before ocr ran. In the merge
// request's diff the four deleted lines come first, so GitLab's old
// counter stands at 9 on both added lines.
func humanRangeNote(p prRepo) gitlabfake.DiscussionRequest {
	sum := sha1.Sum([]byte("store/store.go"))
	code := hex.EncodeToString(sum[:])
	five, six := 5, 6
	pos := &gitlabfake.Position{BaseSHA: p.root, StartSHA: p.base, HeadSHA: p.head, PositionType: "text",
		OldPath: "store/store.go", NewPath: "store/store.go", NewLine: &six,
		LineRange: &gitlabfake.LineRange{Start: gitlabfake.LinePos{LineCode: code + "_9_5", Type: "new", NewLine: &five},
			End: gitlabfake.LinePos{LineCode: code + "_9_6", Type: "new", NewLine: &six}}}
	return gitlabfake.DiscussionRequest{Body: "Why not keep the ok check here?", Position: pos}
}

// TestE2EGitLabMultiLineDiscussions: GitLab answers multi-line positions
// with string line numbers. On a merge request that already holds a
// person's multi-line note, ocr creates a multi-line discussion (exit 0,
// nothing "could not be posted"), a re-run creates nothing (and asks the
// model nothing: the review of the head is reused), and when a fresh
// review (--full) no longer finds it, its multi-line thread is resolved;
// the person's stays.
func TestE2EGitLabMultiLineDiscussions(t *testing.T) {
	t.Parallel()
	p := newPRRepo(t)
	gl := gitlabfake.New(t, gitlabfake.Config{Diff: prDiff(p.testRepo, p.base, p.head), Base: p.root, Start: p.base, Head: p.head})
	human := gl.AddDiscussion(gitlabfake.Human("alice"), humanRangeNote(p))
	llm := llmtest.New(t, llmtest.Script{Name: "store", Match: []string{"store/store.go"},
		Answers: []llmtest.Answer{rangeComments(true), rangeComments(false)}})
	gitlabJob(t, p, gl)
	useLLM(t, llm)

	code, _, errs := run(t, "review", "--repo", p.dir, "--no-filter")
	if code != reporters.ExitOK {
		t.Fatalf("first run: exit %d, want 0\nstderr:\n%s", code, errs)
	}
	t.Logf("API calls of the first review: %v", gl.Calls())
	var ranged []gitlabfake.DiscussionRequest
	for _, d := range gl.Posted() {
		if d.Position != nil && d.Position.LineRange != nil {
			ranged = append(ranged, d)
		}
	}
	if len(gl.Posted()) != 2 || len(ranged) != 1 || *ranged[0].Position.LineRange.Start.NewLine != 5 || *ranged[0].Position.NewLine != 6 {
		t.Fatalf("posted %+v, want one single-line and one 5–6 discussion", gl.Posted())
	}
	if s := gl.SummaryBody(); strings.Contains(s, "could not be posted") || !strings.Contains(s, "**Status:** complete") {
		t.Errorf("summary note:\n%s", s)
	}

	gl.ResetCalls()
	if code, _, errs := run(t, "review", "--repo", p.dir, "--no-filter"); code != reporters.ExitOK {
		t.Fatalf("re-run: exit %d\nstderr:\n%s", code, errs)
	}
	t.Logf("API calls of the re-run: %v", gl.Calls())
	if calls := gl.Calls(); fakes.Writes(calls) != 0 || len(gl.Posted()) != 2 {
		t.Errorf("a re-run with no change wrote to GitLab: %v", calls)
	}

	gl.ResetCalls()
	if code, _, errs := run(t, "review", "--repo", p.dir, "--no-filter", "--full"); code != reporters.ExitOK {
		t.Fatalf("resolving run: exit %d\nstderr:\n%s", code, errs)
	}
	calls := gl.Calls()
	t.Logf("API calls of the resolving run: %v", calls)
	for _, d := range gl.Discussions() {
		ours := strings.Contains(d.Notes[0].Body, "nil check of the old version")
		if d.Notes[0].Resolved != ours {
			t.Errorf("discussion %.60q resolved=%v, want %v", d.Notes[0].Body, d.Notes[0].Resolved, ours)
		}
		if ours && calls["PUT "+gl.MRPath()+"/discussions/"+d.ID] != 1 {
			t.Errorf("ocr's multi-line thread was not resolved by one PUT: %v", calls)
		}
	}
	if calls["PUT "+gl.MRPath()+"/discussions/"+human] != 0 || !strings.Contains(gl.SummaryBody(), "Resolved since the last run (1)") {
		t.Errorf("calls %v; summary:\n%s", calls, gl.SummaryBody())
	}
}
