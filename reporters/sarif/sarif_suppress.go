package sarif

import (
	"github.com/owenrumney/go-sarif/v3/pkg/report/v210/sarif"

	"github.com/ocr-ci/ocr/review"
)

// sarifSuppressions marks a finding someone ignored (SARIF 2.1.0
// §3.27.23, §3.35): kind "external", as the ignore lives outside the
// code (the pull request's conversation, .ocr/rule.json), with who and
// why as the justification, escaped like the message. GitHub code
// scanning shows such a result as dismissed. nil when c is not suppressed.
func sarifSuppressions(c review.Comment) []*sarif.Suppression {
	if c.Suppressed == nil {
		return nil
	}
	s := sarif.NewSuppression().WithKind("external").WithStatus("accepted").
		WithJustification(sarifEscape(c.Suppressed.String()))
	s.Properties = sarif.NewPropertyBag().Add("by", c.Suppressed.By)
	return []*sarif.Suppression{s}
}
