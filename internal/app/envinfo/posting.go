package envinfo

import (
	"fmt"

	"github.com/ocr-ci/ocr/internal/app/config"
)

// Posting says what a review posts on the pull or merge request, for
// `ocr env`: the severity floor and the inline budget of a push, each with
// the variable that sets it.
func Posting(cfg *config.Config) Row {
	return Row{Name: "posting", Value: fmt.Sprintf("comments at or above %s (OCR_POST_MIN_SEVERITY), "+
		"at most %d new inline per push (OCR_MAX_INLINE); the rest stay in the reports and the summary",
		cfg.PostMinSeverity, cfg.MaxInline)}
}

// Passes says how many times each group is reviewed and how many passes
// must agree on a finding, for `ocr env`.
func Passes(cfg *config.Config) Row {
	return Row{Name: "passes", Value: fmt.Sprintf("%d per group (OCR_PASSES), a finding kept when %d found it (OCR_MIN_VOTES)",
		cfg.Passes, cfg.MinVotes)}
}
