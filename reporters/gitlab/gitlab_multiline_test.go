package gitlab_test

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/internal/testkit/fakes/gitlabfake"
	"github.com/ocr-ci/ocr/reporters/internal/reportertest"
	"github.com/ocr-ci/ocr/review"
)

// humanRange is a multi-line comment a person writes in the web UI on new
// lines 3–4 of pkg/f0.go (PostDiff's added lines): GitLab lists it with
// string line numbers in line_range, which once broke every run.
func humanRange() gitlabfake.DiscussionRequest {
	sum := sha1.Sum([]byte("pkg/f0.go"))
	code := hex.EncodeToString(sum[:])
	three, four := 3, 4
	p := &gitlabfake.Position{BaseSHA: reportertest.PostBase, StartSHA: "3333333333333333333333333333333333333333",
		HeadSHA: reportertest.PostHead, PositionType: "text", OldPath: "pkg/f0.go", NewPath: "pkg/f0.go", NewLine: &four}
	p.LineRange = &gitlabfake.LineRange{Start: gitlabfake.LinePos{LineCode: code + "_4_3", Type: "new", NewLine: &three},
		End: gitlabfake.LinePos{LineCode: code + "_4_4", Type: "new", NewLine: &four}}
	return gitlabfake.DiscussionRequest{Body: "These two functions look alike.", Position: p}
}

// TestGitLabMultiLineNotes: a merge request whose discussions hold
// multi-line notes (a person's, and ocr's own ranges) is read, posted to,
// re-run without a write, and ocr's multi-line thread is resolved once its
// finding is gone; the person's thread is never touched.
func TestGitLabMultiLineNotes(t *testing.T) {
	diff := reportertest.PostDiff(3)
	f := reportertest.NewGitLabFake(t, diff, false)
	human := f.AddDiscussion(gitlabfake.Human("alice"), humanRange())
	rec := &reportertest.Recorder{}
	g := reportertest.NewGitLab(t, f, diff, rec)
	cs := []review.Comment{reportertest.PostFinding(reportertest.KindRangeSuggest, 0, review.SeverityHigh),
		reportertest.PostFinding(reportertest.KindRangeSuggest, 1, review.SeverityMedium),
		reportertest.PostFinding(reportertest.KindSingle, 2, review.SeverityLow)}
	if err := g.Report(context.Background(), reportertest.PostReview(cs)); err != nil {
		t.Fatalf("first run: %v", err)
	}
	reportertest.AssertCalls(t, f, map[string]int{reportertest.GLList: 1, reportertest.GLVersions: 1, reportertest.GLCreate: 3, reportertest.GLNote: 1})
	ranges := 0
	for _, d := range f.Discussions() {
		if pos := d.Notes[0].Position; pos != nil && pos["line_range"] != nil {
			ranges++
		}
	}
	if ranges != 3 { // alice's and ocr's two
		t.Errorf("%d multi-line discussions, want 3", ranges)
	}
	if s := f.SummaryBody(); strings.Contains(s, "could not be posted") {
		t.Errorf("summary says a created discussion could not be posted:\n%s", s)
	}

	f.ResetCalls()
	if err := g.Report(context.Background(), reportertest.PostReview(cs)); err != nil {
		t.Fatalf("re-run: %v", err)
	}
	reportertest.AssertCalls(t, f, map[string]int{reportertest.GLList: 1, reportertest.GLUser: 1})

	var goneID string
	for _, d := range f.Discussions() {
		if strings.Contains(d.Notes[0].Body, cs[0].Fingerprint) {
			goneID = d.ID
		}
	}
	f.ResetCalls()
	if err := g.Report(context.Background(), reportertest.PostReview(cs[1:])); err != nil {
		t.Fatalf("resolving run: %v", err)
	}
	calls := f.Calls()
	if calls["PUT "+reportertest.GLMR+"/discussions/"+goneID] != 1 || calls["PUT "+reportertest.GLMR+"/discussions/"+human] != 0 {
		t.Errorf("calls %v: want ocr's multi-line thread %s resolved and alice's %s untouched", calls, goneID, human)
	}
	if s := f.SummaryBody(); !strings.Contains(s, "Resolved since the last run (1)") || !strings.Contains(s, "— thread resolved") {
		t.Errorf("summary:\n%s", s)
	}
	for _, d := range f.Discussions() {
		if d.Notes[0].Resolved != (d.ID == goneID) {
			t.Errorf("discussion %s resolved=%v", d.ID, d.Notes[0].Resolved)
		}
	}
}
