package posting_test

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/reporters/internal/reportertest"

	"github.com/ocr-ci/ocr/reporters/posting"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/ocr-ci/ocr/review"
)

const postNewHead = "4444444444444444444444444444444444444444"

// recorded drops what the summary does not record, for comparing findings.
var recorded = cmp.Options{
	cmpopts.IgnoreFields(review.Location{}, "InHunk", "Method", "Candidates"),
	cmpopts.IgnoreFields(review.Comment{}, "Thinking"),
	cmpopts.SortSlices(func(a, b review.Comment) bool { return a.Fingerprint < b.Fingerprint }),
}

// incompleteReview is a review of postNewHead that did not finish.
func incompleteReview(status review.Status, cs []review.Comment) *review.Review {
	r := reportertest.PostReview(cs)
	r.Status, r.Head = status, postNewHead
	if status == review.StatusFailed {
		r.Files[0].Reviewed, r.Files[0].Reason = false, "the model provider failed"
	}
	return r
}

// checkState asserts the state the summary records.
func checkState(t *testing.T, got posting.State, ok bool, head string, findings []review.Comment) {
	t.Helper()
	if !ok || got.Head != head || got.Config != "cfg1" {
		t.Fatalf("state: head %.7s config %q ok %v, want head %.7s", got.Head, got.Config, ok, head)
	}
	if d := cmp.Diff(findings, got.Findings, recorded); d != "" {
		t.Errorf("recorded findings (-want +got):\n%s", d)
	}
}

// TestGitHubReviewIncompleteKeepsLastCompleteState: a failed or partial
// review of a new head keeps the last complete review's head and findings
// in the summary, resolves nothing, says so, and re-running it writes
// nothing; the next complete review records its own head and findings.
func TestGitHubReviewIncompleteKeepsLastCompleteState(t *testing.T) {
	for _, status := range []review.Status{review.StatusFailed, review.StatusPartial} {
		t.Run(string(status), func(t *testing.T) {
			diff := reportertest.PostDiff(3)
			f := reportertest.NewGitHubFake(t, diff, reportertest.PostHead)
			g := reportertest.NewGitHubReview(t, f, diff, &reportertest.Recorder{})
			first := reportertest.InlineReview(6)
			first.Comments[0].Thinking = "never recorded"
			if err := g.Report(context.Background(), first); err != nil {
				t.Fatal(err)
			}
			f.Push(postNewHead, diff)
			g.HeadSHA = postNewHead
			var cs []review.Comment
			if status == review.StatusPartial {
				cs = []review.Comment{first.Comments[1], reportertest.PostFinding(reportertest.KindSingle, 2, review.SeverityHigh)}
			}
			bad := incompleteReview(status, cs)
			if err := g.Report(context.Background(), bad); err != nil {
				t.Fatal(err)
			}
			body := f.IssueComments()[0].Body
			st, ok := posting.ReadState(body)
			checkState(t, st, ok, reportertest.PostHead, first.Comments)
			if !strings.Contains(body, "**Status:** "+string(status)) || !strings.Contains(body, "the next run reviews again everything") ||
				strings.Contains(body, "Resolved since the last run") {
				t.Errorf("summary of the %s review:\n%s", status, body)
			}
			f.ResetCalls()
			if err := g.Report(context.Background(), bad); err != nil {
				t.Fatal(err)
			}
			reportertest.AssertCalls(t, f, map[string]int{reportertest.RListPR: 1, reportertest.RListIssue: 1})

			good := reportertest.PostReview([]review.Comment{first.Comments[2], reportertest.PostFinding(reportertest.KindRangeSuggest, 2, review.SeverityLow)})
			good.Head = postNewHead
			if err := g.Report(context.Background(), good); err != nil {
				t.Fatal(err)
			}
			st, ok, err := g.LastState(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			checkState(t, st, ok, postNewHead, good.Comments)
		})
	}
}

// TestGitHubReviewFailedFirstReviewRecordsNoState: with no complete review
// before, a failed one records no state, so the next run is a full review.
func TestGitHubReviewFailedFirstReviewRecordsNoState(t *testing.T) {
	diff := reportertest.PostDiff(1)
	f := reportertest.NewGitHubFake(t, diff, reportertest.PostHead)
	g := reportertest.NewGitHubReview(t, f, diff, &reportertest.Recorder{})
	r := incompleteReview(review.StatusFailed, nil)
	r.Head = reportertest.PostHead
	if err := g.Report(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	reportertest.AssertCalls(t, f, map[string]int{reportertest.RListPR: 1, reportertest.RListIssue: 1, reportertest.RIssue: 1})
	if body := f.IssueComments()[0].Body; strings.Contains(body, "ocr:state") || strings.Contains(body, "ocr:findings") {
		t.Errorf("a failed first review recorded a state:\n%s", body)
	}
	if st, ok, err := g.LastState(context.Background()); err != nil || ok {
		t.Errorf("LastState = %+v, %v, %v; want none", st, ok, err)
	}
}

// TestGitHubReviewCompleteRecordsFindings: a complete review records its
// head and every finding, which LastState returns.
func TestGitHubReviewCompleteRecordsFindings(t *testing.T) {
	diff := reportertest.PostDiff(9)
	f := reportertest.NewGitHubFake(t, diff, reportertest.PostHead)
	g := reportertest.NewGitHubReview(t, f, diff, &reportertest.Recorder{})
	r := reportertest.PostReview(reportertest.GitLabFindings(20)) // every kind of placement, summary included
	if err := g.Report(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	st, ok, err := g.LastState(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	checkState(t, st, ok, reportertest.PostHead, r.Comments)
}

// TestGitLabDiscussionIncompleteKeepsLastCompleteState: as on GitHub; and
// a failed review resolves none of the earlier threads.
func TestGitLabDiscussionIncompleteKeepsLastCompleteState(t *testing.T) {
	for _, status := range []review.Status{review.StatusFailed, review.StatusPartial} {
		t.Run(string(status), func(t *testing.T) {
			diff := reportertest.PostDiff(3)
			f := reportertest.NewGitLabFake(t, diff, false)
			g := reportertest.NewGitLab(t, f, diff, &reportertest.Recorder{})
			first := reportertest.PostReview(reportertest.GitLabFindings(3))
			if err := g.Report(context.Background(), first); err != nil {
				t.Fatal(err)
			}
			summaryID := ""
			for _, d := range f.Discussions() {
				if d.IndividualNote {
					summaryID = strconv.FormatInt(d.Notes[0].ID, 10)
				}
			}
			var cs []review.Comment
			if status == review.StatusPartial {
				cs = first.Comments[:2]
			}
			bad := incompleteReview(status, cs)
			g.HeadSHA = postNewHead
			f.ResetCalls()
			if err := g.Report(context.Background(), bad); err != nil {
				t.Fatal(err)
			}
			// Only the summary is edited: no thread is resolved.
			reportertest.AssertCalls(t, f, map[string]int{reportertest.GLList: 1, reportertest.GLUser: 1, "PUT " + reportertest.GLMR + "/notes/" + summaryID: 1})
			st, ok, err := g.LastState(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			checkState(t, st, ok, reportertest.PostHead, first.Comments)
			f.ResetCalls()
			if err := g.Report(context.Background(), bad); err != nil {
				t.Fatal(err)
			}
			reportertest.AssertCalls(t, f, map[string]int{reportertest.GLList: 1})
		})
	}
}

// TestGitLabDiscussionFailedFirstReviewRecordsNoState: as on GitHub.
func TestGitLabDiscussionFailedFirstReviewRecordsNoState(t *testing.T) {
	diff := reportertest.PostDiff(1)
	f := reportertest.NewGitLabFake(t, diff, false)
	g := reportertest.NewGitLab(t, f, diff, &reportertest.Recorder{})
	if err := g.Report(context.Background(), incompleteReview(review.StatusFailed, nil)); err != nil {
		t.Fatal(err)
	}
	reportertest.AssertCalls(t, f, map[string]int{reportertest.GLList: 1, reportertest.GLNote: 1})
	if body := f.SummaryBody(); strings.Contains(body, "ocr:state") || !strings.Contains(body, "**Status:** failed") {
		t.Errorf("summary of a failed first review:\n%s", body)
	}
	if st, ok, err := g.LastState(context.Background()); err != nil || ok {
		t.Errorf("LastState = %+v, %v, %v; want none", st, ok, err)
	}
}
