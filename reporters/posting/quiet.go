package posting

import "github.com/ocr-ci/ocr/review"

// Quiet reports whether a run has nothing new to show on the pull or merge
// request: the review is complete and none of its findings is placed by
// this run (inline, file-level or in the summary's list); those below the
// floor, over the budget or posted before do not count. A quiet run
// creates no summary comment, so a clean push notifies nobody; an existing
// summary is still edited in place (an edit notifies nobody either).
func Quiet(r *review.Review, ps []Placement) bool {
	if r.Status != review.StatusComplete {
		return false
	}
	for _, p := range ps {
		switch p.Kind {
		case PlaceInline, PlaceFile, PlaceSummary:
			return false
		}
	}
	return true
}

// QuietNote is the log line of a quiet run: where the review's result is
// instead.
const QuietNote = "nothing new to post on %s: no review, no comment and no notification; " +
	"the step summary, the job's status and the reports hold the result (%d finding(s) below the posting floor)"
