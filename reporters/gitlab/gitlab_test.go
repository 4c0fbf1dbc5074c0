package gitlab_test

import (
	"context"
	"encoding/json"
	"encoding/pem"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ocr-ci/ocr/reporters/posting"

	"github.com/ocr-ci/ocr/reporters/internal/reportertest"

	"github.com/google/go-cmp/cmp"

	"github.com/ocr-ci/ocr/internal/testkit/fakes/gitlabfake"
	"github.com/ocr-ci/ocr/review"
)

func TestGitLabDiscussionFirstRunRerunAndResolve(t *testing.T) {
	diff := reportertest.PostDiff(5)
	f := reportertest.NewGitLabFake(t, diff, false)
	f.SetPerPage(5) // 14 discussions after the first run: three pages
	rec := &reportertest.Recorder{}
	g := reportertest.NewGitLab(t, f, diff, rec)
	cs := reportertest.GitLabFindings(6)
	if err := g.Report(context.Background(), reportertest.PostReview(cs)); err != nil {
		t.Fatal(err)
	}
	// 13 findings: 11 positioned, 2 general notes (outside the diff,
	// file-level), 1 in the summary.
	reportertest.AssertCalls(t, f, map[string]int{reportertest.GLList: 1, reportertest.GLVersions: 1, reportertest.GLCreate: 13, reportertest.GLNote: 1})
	byFP := map[string]gitlabfake.DiscussionRequest{}
	for _, d := range f.Posted() {
		fp, _ := strings.CutPrefix(reportertest.LastBodyLine(d.Body), "<!-- ocr:fp=")
		byFP[strings.TrimSuffix(fp, " -->")] = d
	}
	var first []gitlabfake.DiscussionRequest
	for _, k := range []int{reportertest.KindRangeSuggest, reportertest.KindDeleted, reportertest.KindSingle, reportertest.KindAcrossHunks, reportertest.KindFileLevel, len(cs) - 7} {
		first = append(first, byFP[cs[k].Fingerprint])
	}
	js, _ := json.MarshalIndent(first, "", "  ")
	reportertest.PostGolden(t, "gitlab_first_discussions.golden", string(js)+"\n")
	reportertest.PostGolden(t, "gitlab_first_summary.golden", f.SummaryBody())

	f.ResetCalls()
	if err := g.Report(context.Background(), reportertest.PostReview(cs)); err != nil {
		t.Fatal(err)
	}
	reportertest.AssertCalls(t, f, map[string]int{reportertest.GLList: 3, reportertest.GLUser: 1}) // the markers found are judged by their author

	// A human replies to one thread; then both its finding and another
	// disappear: only the thread nobody answered is resolved.
	gone, answered := cs[reportertest.KindDeleted], cs[reportertest.KindSingle]
	var goneID, summaryID string
	for _, d := range f.Discussions() {
		switch {
		case strings.Contains(d.Notes[0].Body, answered.Fingerprint):
			f.Reply(d.ID, "alice", "I disagree")
		case strings.Contains(d.Notes[0].Body, gone.Fingerprint):
			goneID = d.ID
		case d.IndividualNote:
			summaryID = strconv.FormatInt(d.Notes[0].ID, 10)
		}
	}
	var rest []review.Comment
	for _, c := range cs {
		if c.Fingerprint != gone.Fingerprint && c.Fingerprint != answered.Fingerprint {
			rest = append(rest, c)
		}
	}
	f.ResetCalls()
	if err := g.Report(context.Background(), reportertest.PostReview(rest)); err != nil {
		t.Fatal(err)
	}
	reportertest.AssertCalls(t, f, map[string]int{reportertest.GLList: 3, "PUT " + reportertest.GLMR + "/discussions/" + goneID: 1, "PUT " + reportertest.GLMR + "/notes/" + summaryID: 1})
	if s := f.SummaryBody(); !strings.Contains(s, "Resolved since the last run (2)") {
		t.Errorf("summary does not list the resolved findings:\n%s", s)
	}
	if st, ok, err := g.LastState(context.Background()); err != nil || !ok || st.Head != reportertest.PostHead || st.Config != "cfg1" {
		t.Errorf("LastState = %+v, %v, %v", st, ok, err)
	}
}

func TestGitLabDiscussionDegradesRejectedPositions(t *testing.T) {
	fakeDiff := reportertest.PostDiff(2)
	f := reportertest.NewGitLabFake(t, fakeDiff, false)
	f.UndiffOnce()
	g := reportertest.NewGitLab(t, f, fakeDiff+reportertest.StaleHunk, &reportertest.Recorder{})
	g.Concurrency = 1 // undiffOne must hit the first finding
	stale := reportertest.PostFinding(reportertest.KindSingle, 1, review.SeverityMedium)
	stale.StartLine, stale.EndLine = 63, 63
	first := reportertest.PostFinding(reportertest.KindSingle, 0, review.SeverityHigh)
	if err := g.Report(context.Background(), reportertest.PostReview([]review.Comment{first, stale})); err != nil {
		t.Fatal(err)
	}
	// first: created as a plain note, then rewritten to say where it
	// belongs; stale: 400, then a general note.
	reportertest.AssertCalls(t, f, map[string]int{reportertest.GLList: 1, reportertest.GLVersions: 1, reportertest.GLCreate: 3, reportertest.GLNote: 1,
		"PUT " + reportertest.GLMR + "/discussions/" + f.Discussions()[0].ID + "/notes/1": 1})
	if posted := f.Posted(); len(posted) != 2 || posted[1].Position != nil || !strings.HasPrefix(posted[1].Body, "On `pkg/f1.go` line 63:") {
		t.Fatalf("posted: %+v", posted)
	}
	var edited bool
	for _, d := range f.Discussions() {
		edited = edited || strings.HasPrefix(d.Notes[0].Body, "On `pkg/f0.go` line 42:")
	}
	if !edited {
		t.Error("the unanchored note was not rewritten with its location")
	}
}

func TestGitLabDiscussionHonours429(t *testing.T) {
	diff := reportertest.PostDiff(2)
	f := reportertest.NewGitLabFake(t, diff, false)
	f.TooManyRequestsOnce()
	rec := &reportertest.Recorder{}
	g := reportertest.NewGitLab(t, f, diff, rec)
	g.Concurrency = 1
	if err := g.Report(context.Background(), reportertest.PostReview([]review.Comment{reportertest.PostFinding(reportertest.KindSingle, 0, review.SeverityHigh)})); err != nil {
		t.Fatal(err)
	}
	reportertest.AssertCalls(t, f, map[string]int{reportertest.GLList: 1, reportertest.GLVersions: 1, reportertest.GLCreate: 2, reportertest.GLNote: 1})
	if d := cmp.Diff([]time.Duration{2 * time.Second}, rec.Sleeps); d != "" {
		t.Errorf("sleeps (-want +got):\n%s", d)
	}
}

func TestGitLabDiscussionTokenErrorsArePlain(t *testing.T) {
	diff := reportertest.PostDiff(1)
	f := reportertest.NewGitLabFake(t, diff, false)
	rec := &reportertest.Recorder{}
	g := reportertest.NewGitLab(t, f, diff, rec)
	g.TokenSource = "CI_JOB_TOKEN"
	err := g.Report(context.Background(), reportertest.PostReview([]review.Comment{reportertest.PostFinding(reportertest.KindSingle, 0, review.SeverityHigh)}))
	if !errors.Is(err, posting.ErrNoWriteAccess) || !strings.Contains(err.Error(), "CI_JOB_TOKEN cannot create") {
		t.Errorf("job token: %v", err)
	}
	reportertest.AssertCalls(t, f, map[string]int{})

	f.SetForbidden(true)
	g.TokenSource = "GITLAB_TOKEN"
	err = g.Report(context.Background(), reportertest.PostReview([]review.Comment{reportertest.PostFinding(reportertest.KindSingle, 0, review.SeverityHigh)}))
	if !errors.Is(err, posting.ErrNoWriteAccess) || !strings.Contains(err.Error(), "answered 403") || !strings.Contains(err.Error(), "api scope") {
		t.Errorf("403: %v", err)
	}
	if rec.Reports != 2 {
		t.Errorf("fallback ran %d times, want 2", rec.Reports)
	}
}

func TestGitLabDiscussionTrustsCAFile(t *testing.T) {
	diff := reportertest.PostDiff(1)
	f := reportertest.NewGitLabFake(t, diff, true)
	ca := filepath.Join(t.TempDir(), "ca.pem")
	cert := f.Certificate()
	if err := os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: cert.Raw}), 0o600); err != nil {
		t.Fatal(err)
	}
	g := reportertest.NewGitLab(t, f, diff, &reportertest.Recorder{})
	g.HTTPClient, g.CAFile = nil, ca
	if err := g.Report(context.Background(), reportertest.PostReview(nil)); err != nil {
		t.Fatal(err)
	}
	reportertest.AssertCalls(t, f, map[string]int{reportertest.GLList: 1}) // a clean review posts nothing
}

// TestGitLabRefusedListingKeepsGitLabsMessage: a listing GitLab refuses
// (401: a token it does not know; 403) falls back like a refused write,
// and the error keeps what GitLab said besides which token is needed.
func TestGitLabRefusedListingKeepsGitLabsMessage(t *testing.T) {
	for status, want := range map[int]string{401: `GitLab answered 401 "401 Unauthorized"; the token is not valid`,
		403: `GitLab answered 403 "403 Forbidden"; CI_JOB_TOKEN cannot create`} {
		diff := reportertest.PostDiff(1)
		f := reportertest.NewGitLabFake(t, diff, false)
		f.RefuseReads(status)
		rec := &reportertest.Recorder{}
		err := reportertest.NewGitLab(t, f, diff, rec).Report(context.Background(), reportertest.PostReview(nil))
		if !errors.Is(err, posting.ErrNoWriteAccess) || !strings.Contains(err.Error(), "could not list the discussions of merge request !5: "+want) {
			t.Errorf("%d: %v", status, err)
		}
		if rec.Reports != 1 {
			t.Errorf("%d: fallback ran %d times, want 1", status, rec.Reports)
		}
	}
}
