package gitlab_test

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/reporters/internal/reportertest"
	"github.com/ocr-ci/ocr/reporters/posting"

	"github.com/ocr-ci/ocr/internal/testkit/fakes/gitlabfake"
	"github.com/ocr-ci/ocr/review"
)

// glForgedSummary is a genuine summary note of a clean complete review of
// reportertest.PostHead, taken from another merge request.
func glForgedSummary(t *testing.T) string {
	t.Helper()
	// A clean review creates no summary (posting.Quiet): render the one an
	// existing summary would be edited into.
	r := reportertest.PostReview(nil)
	body := posting.StickySummary(posting.StickyInput{Review: r, State: posting.RecordedState(r, reportertest.PostHead, "cfg1", "")})
	if st, ok := posting.ReadState(body); !ok || st.Head != reportertest.PostHead || st.Findings == nil {
		t.Fatalf("the forgery does not carry a readable state: %+v %v", st, ok)
	}
	return body
}

// TestGitLabDiscussionIgnoresForgedNotes: a summary or fingerprint posted by
// anyone but the token's user — a person or another bot — is not ocr's: no
// state, nothing suppressed, nothing listed as resolved; the real summary
// is created and later edited.
func TestGitLabDiscussionIgnoresForgedNotes(t *testing.T) {
	for _, forger := range []gitlabfake.User{gitlabfake.Human("mallory"), {ID: 777, Username: "project_42_bot_other"}} {
		t.Run(forger.Username, func(t *testing.T) {
			diff := reportertest.PostDiff(3)
			f := reportertest.NewGitLabFake(t, diff, false)
			cs := []review.Comment{reportertest.PostFinding(reportertest.KindSingle, 0, review.SeverityHigh), reportertest.PostFinding(reportertest.KindSingle, 1, review.SeverityLow)}
			f.AddNote(forger, glForgedSummary(t))
			for _, fp := range []string{cs[0].Fingerprint, "gone"} {
				f.AddNote(forger, "fine\n\n<!-- ocr:fp="+fp+" -->")
			}
			rec := &reportertest.Recorder{}
			g := reportertest.NewGitLab(t, f, diff, rec)
			if st, ok, err := g.LastState(context.Background()); err != nil || ok {
				t.Fatalf("LastState = %+v, %v, %v; the forged summary must not count", st, ok, err)
			}
			reportertest.AssertCalls(t, f, map[string]int{reportertest.GLList: 1, reportertest.GLUser: 1})
			if !strings.Contains(strings.Join(rec.Logs, "\n"), "posts as project_42_bot_3f1e0c2a (user 9042)") {
				t.Errorf("the rule in effect is not logged: %q", rec.Logs)
			}
			f.ResetCalls()
			if err := g.Report(context.Background(), reportertest.PostReview(cs)); err != nil {
				t.Fatal(err)
			}
			reportertest.AssertCalls(t, f, map[string]int{reportertest.GLList: 1, reportertest.GLVersions: 1, reportertest.GLCreate: 2, reportertest.GLNote: 1})
			summary := f.SummaryBody()
			if strings.Contains(summary, "Resolved since") {
				t.Errorf("a forged marker is listed as resolved:\n%s", summary)
			}
			summaryID := ""
			for _, d := range f.Discussions() {
				if d.IndividualNote && d.Notes[0].Body == summary {
					summaryID = strconv.FormatInt(d.Notes[0].ID, 10)
				}
			}
			var ocrThread string
			for _, d := range f.Discussions() {
				if !d.IndividualNote && strings.Contains(d.Notes[0].Body, cs[0].Fingerprint) {
					ocrThread = d.ID
				}
			}
			f.ResetCalls()
			if err := g.Report(context.Background(), reportertest.PostReview(cs[1:])); err != nil {
				t.Fatal(err)
			}
			reportertest.AssertCalls(t, f, map[string]int{reportertest.GLList: 1, "PUT " + reportertest.GLMR + "/discussions/" + ocrThread: 1,
				"PUT " + reportertest.GLMR + "/notes/" + summaryID: 1})
		})
	}
}

// TestGitLabDiscussionReplyWithMarkerIsAReply: a reply carrying a forged
// marker is still a person's reply: the thread is never resolved.
func TestGitLabDiscussionReplyWithMarkerIsAReply(t *testing.T) {
	diff := reportertest.PostDiff(2)
	f := reportertest.NewGitLabFake(t, diff, false)
	g := reportertest.NewGitLab(t, f, diff, &reportertest.Recorder{})
	cs := []review.Comment{reportertest.PostFinding(reportertest.KindSingle, 0, review.SeverityHigh), reportertest.PostFinding(reportertest.KindSingle, 1, review.SeverityLow)}
	if err := g.Report(context.Background(), reportertest.PostReview(cs)); err != nil {
		t.Fatal(err)
	}
	for _, d := range f.Discussions() {
		if strings.Contains(d.Notes[0].Body, cs[0].Fingerprint) {
			f.Reply(d.ID, "mallory", "please resolve\n\n<!-- ocr:fp="+cs[0].Fingerprint+" -->")
		}
	}
	f.ResetCalls()
	if err := g.Report(context.Background(), reportertest.PostReview(cs[1:])); err != nil {
		t.Fatal(err)
	}
	for k := range f.Calls() {
		if strings.HasPrefix(k, "PUT "+reportertest.GLMR+"/discussions/") {
			t.Errorf("%s: a thread someone replied to was resolved", k)
		}
	}
}

// TestGitLabDiscussionUserLookupFails: without knowing its own user ocr
// cannot tell its notes from forgeries, so it posts nothing rather than
// duplicates, and says why; LastState reports the error (a full review).
func TestGitLabDiscussionUserLookupFails(t *testing.T) {
	diff := reportertest.PostDiff(2)
	f := reportertest.NewGitLabFake(t, diff, false)
	cs := []review.Comment{reportertest.PostFinding(reportertest.KindSingle, 0, review.SeverityHigh)}
	if err := reportertest.NewGitLab(t, f, diff, &reportertest.Recorder{}).Report(context.Background(), reportertest.PostReview(cs)); err != nil {
		t.Fatal(err)
	}
	f.SetUserStatus(502)
	f.ResetCalls()
	g := reportertest.NewGitLab(t, f, diff, &reportertest.Recorder{})
	if _, ok, err := g.LastState(context.Background()); err == nil || ok || !strings.Contains(err.Error(), "GET /user") {
		t.Errorf("LastState: ok %v err %v", ok, err)
	}
	err := g.Report(context.Background(), reportertest.PostReview(cs))
	if err == nil || !strings.Contains(err.Error(), "which user the token posts as") {
		t.Errorf("Report: %v", err)
	}
	reportertest.AssertCalls(t, f, map[string]int{reportertest.GLList: 2, reportertest.GLUser: 2})
}
