package posting

import (
	"github.com/ocr-ci/ocr/reporters"
	"github.com/ocr-ci/ocr/review"
)

// ignoredNote is the sticky summary's line for the findings someone
// ignored ("1 finding ignored (by @alice: reason)"), escaped like any
// people's text (no mention, link or quick action); "" when none.
func ignoredNote(cs []review.Comment) string {
	line := reporters.IgnoredLine(cs)
	if line == "" {
		return ""
	}
	return "\n" + postSafeInline(line, Links{}) + ": not posted, not counted by `--fail-on`.\n"
}

// WithoutIgnored is r without the findings of ignored (by fingerprint)
// and the suppressed ones, for a poster only (the file reports keep
// them), and order (a poster's earlier findings, by fingerprint) without
// theirs, so they are neither posted again nor resolved as gone. r and
// order themselves when nothing is ignored.
func WithoutIgnored(r *review.Review, ignored map[string]bool, order []string) (*review.Review, []string) {
	skip := make(map[string]bool, len(ignored))
	for fp := range ignored {
		skip[fp] = true
	}
	for _, c := range review.Suppressed(r.Comments) {
		skip[review.FingerprintOf(c)] = true
	}
	if len(skip) == 0 {
		return r, order
	}
	out := *r
	out.Comments = nil
	for _, c := range r.Comments {
		if !skip[review.FingerprintOf(c)] {
			out.Comments = append(out.Comments, c)
		}
	}
	kept := order[:0:0]
	for _, fp := range order {
		if !skip[fp] {
			kept = append(kept, fp)
		}
	}
	return &out, kept
}
