package gitlab_test

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/reporters/internal/reportertest"
	"github.com/ocr-ci/ocr/review"
)

// TestGitLabDiscussionQuietOnACleanChange: a clean push creates no note;
// once ocr has a summary note, a clean push resolves the gone finding's
// discussion and updates that note in place, without a POST.
func TestGitLabDiscussionQuietOnACleanChange(t *testing.T) {
	diff := reportertest.PostDiff(2)
	f := reportertest.NewGitLabFake(t, diff, false)
	rec := &reportertest.Recorder{}
	g := reportertest.NewGitLab(t, f, diff, rec)
	g.MinSeverity = "" // the default floor, medium
	low := reportertest.PostFinding(reportertest.KindSingle, 1, review.SeverityLow)
	if err := g.Report(context.Background(), reportertest.PostReview([]review.Comment{low})); err != nil {
		t.Fatal(err)
	}
	reportertest.AssertCalls(t, f, map[string]int{reportertest.GLList: 1})
	if logs := strings.Join(rec.Logs, "\n"); !strings.Contains(logs, "nothing new to post on merge request !5") {
		t.Errorf("the quiet run is not logged:\n%s", logs)
	}

	high := reportertest.PostFinding(reportertest.KindSingle, 0, review.SeverityHigh)
	if err := g.Report(context.Background(), reportertest.PostReview([]review.Comment{high})); err != nil {
		t.Fatal(err)
	}
	var threadID, summaryID string
	for _, d := range f.Discussions() {
		if d.IndividualNote {
			summaryID = strconv.FormatInt(d.Notes[0].ID, 10)
		} else {
			threadID = d.ID
		}
	}
	f.ResetCalls()
	if err := g.Report(context.Background(), reportertest.PostReview(nil)); err != nil {
		t.Fatal(err)
	}
	reportertest.AssertCalls(t, f, map[string]int{reportertest.GLList: 1, reportertest.GLUser: 1,
		"PUT " + reportertest.GLMR + "/discussions/" + threadID: 1, "PUT " + reportertest.GLMR + "/notes/" + summaryID: 1})
	if s := f.SummaryBody(); !strings.Contains(s, "Resolved since the last run (1)") {
		t.Errorf("the summary note does not list the resolved finding:\n%s", s)
	}
}
