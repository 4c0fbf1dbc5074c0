package reporters_test

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/internal/fakes/gitlabfake"
	"github.com/ocr-ci/ocr/reporters"
	"github.com/ocr-ci/ocr/review"
)

// glForgedSummary is a genuine summary note of a clean complete review of
// postHead, taken from another merge request.
func glForgedSummary(t *testing.T) string {
	t.Helper()
	diff := postDiff(1)
	f := newGitLabFake(t, diff, false)
	if err := newGitLab(t, f, diff, &postRecorder{}).Report(context.Background(), postReview(nil)); err != nil {
		t.Fatal(err)
	}
	body := f.SummaryBody()
	if st, ok := reporters.ReadState(body); !ok || st.Head != postHead || st.Findings == nil {
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
			diff := postDiff(3)
			f := newGitLabFake(t, diff, false)
			cs := []review.Comment{postFinding(kindSingle, 0, review.SeverityHigh), postFinding(kindSingle, 1, review.SeverityLow)}
			f.AddNote(forger, glForgedSummary(t))
			for _, fp := range []string{cs[0].Fingerprint, "gone"} {
				f.AddNote(forger, "fine\n\n<!-- ocr:fp="+fp+" -->")
			}
			rec := &postRecorder{}
			g := newGitLab(t, f, diff, rec)
			if st, ok, err := g.LastState(context.Background()); err != nil || ok {
				t.Fatalf("LastState = %+v, %v, %v; the forged summary must not count", st, ok, err)
			}
			postAssertCalls(t, f, map[string]int{glList: 1, glUser: 1})
			if !strings.Contains(strings.Join(rec.logs, "\n"), "posts as project_42_bot_3f1e0c2a (user 9042)") {
				t.Errorf("the rule in effect is not logged: %q", rec.logs)
			}
			f.ResetCalls()
			if err := g.Report(context.Background(), postReview(cs)); err != nil {
				t.Fatal(err)
			}
			postAssertCalls(t, f, map[string]int{glList: 1, glVersions: 1, glCreate: 2, glNote: 1})
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
			if err := g.Report(context.Background(), postReview(cs[1:])); err != nil {
				t.Fatal(err)
			}
			postAssertCalls(t, f, map[string]int{glList: 1, "PUT " + glMR + "/discussions/" + ocrThread: 1,
				"PUT " + glMR + "/notes/" + summaryID: 1})
		})
	}
}

// TestGitLabDiscussionReplyWithMarkerIsAReply: a reply carrying a forged
// marker is still a person's reply: the thread is never resolved.
func TestGitLabDiscussionReplyWithMarkerIsAReply(t *testing.T) {
	diff := postDiff(2)
	f := newGitLabFake(t, diff, false)
	g := newGitLab(t, f, diff, &postRecorder{})
	cs := []review.Comment{postFinding(kindSingle, 0, review.SeverityHigh), postFinding(kindSingle, 1, review.SeverityLow)}
	if err := g.Report(context.Background(), postReview(cs)); err != nil {
		t.Fatal(err)
	}
	for _, d := range f.Discussions() {
		if strings.Contains(d.Notes[0].Body, cs[0].Fingerprint) {
			f.Reply(d.ID, "mallory", "please resolve\n\n<!-- ocr:fp="+cs[0].Fingerprint+" -->")
		}
	}
	f.ResetCalls()
	if err := g.Report(context.Background(), postReview(cs[1:])); err != nil {
		t.Fatal(err)
	}
	for k := range f.Calls() {
		if strings.HasPrefix(k, "PUT "+glMR+"/discussions/") {
			t.Errorf("%s: a thread someone replied to was resolved", k)
		}
	}
}

// TestGitLabDiscussionUserLookupFails: without knowing its own user ocr
// cannot tell its notes from forgeries, so it posts nothing rather than
// duplicates, and says why; LastState reports the error (a full review).
func TestGitLabDiscussionUserLookupFails(t *testing.T) {
	diff := postDiff(2)
	f := newGitLabFake(t, diff, false)
	cs := []review.Comment{postFinding(kindSingle, 0, review.SeverityHigh)}
	if err := newGitLab(t, f, diff, &postRecorder{}).Report(context.Background(), postReview(cs)); err != nil {
		t.Fatal(err)
	}
	f.SetUserStatus(502)
	f.ResetCalls()
	g := newGitLab(t, f, diff, &postRecorder{})
	if _, ok, err := g.LastState(context.Background()); err == nil || ok || !strings.Contains(err.Error(), "GET /user") {
		t.Errorf("LastState: ok %v err %v", ok, err)
	}
	err := g.Report(context.Background(), postReview(cs))
	if err == nil || !strings.Contains(err.Error(), "which user the token posts as") {
		t.Errorf("Report: %v", err)
	}
	postAssertCalls(t, f, map[string]int{glList: 2, glUser: 2})
}
