package selection

import (
	"fmt"

	"github.com/ocr-ci/ocr/review"
)

// BudgetDetail explains a file the diff budget left out that would have
// been reviewed: the review falls short of it.
const BudgetDetail = "the diff budget (--max-diff-mb) was spent before this file"

// MarkBudget explains the files the diff budget left out; a file whose diff
// is too large by itself (--max-file-tokens) would not have been reviewed
// anyway and keeps the plain too_large.
func MarkBudget(files []review.FileCoverage, over map[string]int64, maxFileTokens int) []review.FileCoverage {
	for i := range files {
		if n, ok := over[files[i].Path]; ok && files[i].Reason == review.ReasonTooLarge && n/4 <= int64(maxFileTokens) {
			files[i].Detail = BudgetDetail
		}
	}
	return files
}

// ShortOfCaps reports whether a cap left out a file that would have been
// reviewed: the review is then partial, not complete (a hostile pull
// request must not hide a file behind 300 others and still pass).
func ShortOfCaps(files []review.FileCoverage) bool {
	for _, f := range files {
		if f.Reason == review.ReasonTooMany || f.Reason == review.ReasonTooLarge && f.Detail == BudgetDetail {
			return true
		}
	}
	return false
}

// CapFiles keeps at most limit files reviewed, in the selection's order; the
// others are not reviewed, reason too_many. limit <= 0 means no cap.
func CapFiles(files []review.FileCoverage, limit int) []review.FileCoverage {
	Cap(files, limit, review.ReasonTooMany, fmt.Sprintf("over the cap of %d files reviewed per run (--max-files)", limit))
	return files
}

// Cap keeps the first limit reviewed files and marks the others not
// reviewed with reason and detail, never silently; it returns how many it
// cut. limit <= 0 means no cap.
func Cap(files []review.FileCoverage, limit int, reason review.Reason, detail string) int {
	if limit <= 0 {
		return 0
	}
	kept, cut := 0, 0
	for i := range files {
		if !files[i].Reviewed {
			continue
		}
		if kept < limit {
			kept++
			continue
		}
		files[i].Reviewed, files[i].Reason, files[i].Detail = false, reason, detail
		cut++
	}
	return cut
}
