package sarif

import "github.com/ocr-ci/ocr/review"

// sarifSuppressions marks a finding someone ignored (SARIF 2.1.0
// §3.27.23, §3.35): kind "external", as the ignore lives outside the
// code (the pull request's conversation, .ocr/rule.json), with who and
// why as the justification, escaped like the message. GitHub code
// scanning shows such a result as dismissed. nil when c is not suppressed.
func sarifSuppressions(c review.Comment) []suppression {
	if c.Suppressed == nil {
		return nil
	}
	return []suppression{{
		Justification: sarifEscape(c.Suppressed.String()), Kind: "external",
		Properties: suppressedBy{By: c.Suppressed.By}, Status: "accepted",
	}}
}
