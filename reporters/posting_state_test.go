package reporters_test

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/ocr-ci/ocr/reporters"
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
	r := postReview(cs)
	r.Status, r.Head = status, postNewHead
	if status == review.StatusFailed {
		r.Files[0].Reviewed, r.Files[0].Reason = false, "the model provider failed"
	}
	return r
}

// checkState asserts the state the summary records.
func checkState(t *testing.T, got reporters.State, ok bool, head string, findings []review.Comment) {
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
			diff := postDiff(3)
			f := newGitHubFake(t, diff, postHead)
			g := newGitHubReview(t, f, diff, &postRecorder{})
			first := inlineReview(6)
			first.Comments[0].Thinking = "never recorded"
			if err := g.Report(context.Background(), first); err != nil {
				t.Fatal(err)
			}
			f.Push(postNewHead, diff)
			g.HeadSHA = postNewHead
			var cs []review.Comment
			if status == review.StatusPartial {
				cs = []review.Comment{first.Comments[1], postFinding(kindSingle, 2, review.SeverityHigh)}
			}
			bad := incompleteReview(status, cs)
			if err := g.Report(context.Background(), bad); err != nil {
				t.Fatal(err)
			}
			body := f.IssueComments()[0].Body
			st, ok := reporters.ReadState(body)
			checkState(t, st, ok, postHead, first.Comments)
			if !strings.Contains(body, "**Status:** "+string(status)) || !strings.Contains(body, "the next run reviews again everything") ||
				strings.Contains(body, "Resolved since the last run") {
				t.Errorf("summary of the %s review:\n%s", status, body)
			}
			f.ResetCalls()
			if err := g.Report(context.Background(), bad); err != nil {
				t.Fatal(err)
			}
			postAssertCalls(t, f, map[string]int{rListPR: 1, rListIssue: 1})

			good := postReview([]review.Comment{first.Comments[2], postFinding(kindRangeSuggest, 2, review.SeverityLow)})
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
	diff := postDiff(1)
	f := newGitHubFake(t, diff, postHead)
	g := newGitHubReview(t, f, diff, &postRecorder{})
	r := incompleteReview(review.StatusFailed, nil)
	r.Head = postHead
	if err := g.Report(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	postAssertCalls(t, f, map[string]int{rListPR: 1, rListIssue: 1, rIssue: 1})
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
	diff := postDiff(9)
	f := newGitHubFake(t, diff, postHead)
	g := newGitHubReview(t, f, diff, &postRecorder{})
	r := postReview(gitlabFindings(20)) // every kind of placement, summary included
	if err := g.Report(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	st, ok, err := g.LastState(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	checkState(t, st, ok, postHead, r.Comments)
}

// TestGitLabDiscussionIncompleteKeepsLastCompleteState: as on GitHub; and
// a failed review resolves none of the earlier threads.
func TestGitLabDiscussionIncompleteKeepsLastCompleteState(t *testing.T) {
	for _, status := range []review.Status{review.StatusFailed, review.StatusPartial} {
		t.Run(string(status), func(t *testing.T) {
			diff := postDiff(3)
			f := newGitLabFake(t, diff, false)
			g := newGitLab(t, f, diff, &postRecorder{})
			first := postReview(gitlabFindings(3))
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
			postAssertCalls(t, f, map[string]int{glList: 1, glUser: 1, "PUT " + glMR + "/notes/" + summaryID: 1})
			st, ok, err := g.LastState(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			checkState(t, st, ok, postHead, first.Comments)
			f.ResetCalls()
			if err := g.Report(context.Background(), bad); err != nil {
				t.Fatal(err)
			}
			postAssertCalls(t, f, map[string]int{glList: 1})
		})
	}
}

// TestGitLabDiscussionFailedFirstReviewRecordsNoState: as on GitHub.
func TestGitLabDiscussionFailedFirstReviewRecordsNoState(t *testing.T) {
	diff := postDiff(1)
	f := newGitLabFake(t, diff, false)
	g := newGitLab(t, f, diff, &postRecorder{})
	if err := g.Report(context.Background(), incompleteReview(review.StatusFailed, nil)); err != nil {
		t.Fatal(err)
	}
	postAssertCalls(t, f, map[string]int{glList: 1, glNote: 1})
	if body := f.SummaryBody(); strings.Contains(body, "ocr:state") || !strings.Contains(body, "**Status:** failed") {
		t.Errorf("summary of a failed first review:\n%s", body)
	}
	if st, ok, err := g.LastState(context.Background()); err != nil || ok {
		t.Errorf("LastState = %+v, %v, %v; want none", st, ok, err)
	}
}
