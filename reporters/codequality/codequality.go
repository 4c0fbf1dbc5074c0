// Package codequality writes the review as a GitLab Code Quality report.
package codequality

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/ocr-ci/ocr/reporters"
	"github.com/ocr-ci/ocr/review"
)

// Reporter writes a GitLab Code Quality report: a JSON array of
// Code Climate issues, uploaded with `artifacts: reports: codequality:`.
// https://docs.gitlab.com/ci/testing/code_quality/#code-quality-report-format
type Reporter struct {
	W io.Writer
}

var _ reporters.Reporter = (*Reporter)(nil)

// codeQualityIssue is one entry; all fields are required by GitLab.
type codeQualityIssue struct {
	Description string              `json:"description"`
	CheckName   string              `json:"check_name"`
	Fingerprint string              `json:"fingerprint"`
	Severity    string              `json:"severity"`
	Location    codeQualityLocation `json:"location"`
}

type codeQualityLocation struct {
	Path  string           `json:"path"`
	Lines codeQualityLines `json:"lines"`
}

type codeQualityLines struct {
	// Begin is 1-based; GitLab needs a line, so file-level and removed-code
	// findings use 1 and say so in the description.
	Begin int `json:"begin"`
}

// codeQualitySeverity maps ours onto info|minor|major|critical|blocker.
var codeQualitySeverity = map[review.Severity]string{
	review.SeverityLow: "minor", review.SeverityMedium: "major",
	review.SeverityHigh: "critical", review.SeverityCritical: "blocker",
}

// Report writes the array ([] when there are no comments). A suppressed
// comment is left out: Code Quality has no field to mark it.
func (q *Reporter) Report(_ context.Context, r *review.Review) error {
	r = r.Active()
	issues := make([]codeQualityIssue, 0, len(r.Comments))
	fps := map[string]int{}
	for _, c := range reporters.BySeverity(r.Comments) {
		issues = append(issues, codeQualityFor(c, reporters.UniqueFingerprint(fps, c)))
	}
	data, err := reporters.MarshalIndent(issues)
	if err != nil {
		return fmt.Errorf("could not encode the Code Quality report: %w", err)
	}
	if _, err := q.W.Write(data); err != nil {
		return fmt.Errorf("could not write the Code Quality report: %w", err)
	}
	return nil
}

func codeQualityFor(c review.Comment, fingerprint string) codeQualityIssue {
	sev, ok := codeQualitySeverity[c.Severity]
	if !ok {
		sev = "info"
	}
	begin := max(c.StartLine, 1)
	desc := strings.TrimSpace(c.Content)
	switch {
	case c.FileLevel():
		desc = "File-level finding: " + desc
	case c.Side == review.SideOld:
		begin = 1
		desc = fmt.Sprintf("About removed code (%s of the old version of %s): %s", reporters.LineSpan(c.StartLine, c.EndLine), reporters.OldPath(c.Location), desc)
	}
	return codeQualityIssue{
		Description: desc,
		CheckName:   reporters.RuleID(c),
		Fingerprint: fingerprint,
		Severity:    sev,
		Location:    codeQualityLocation{Path: c.Path, Lines: codeQualityLines{Begin: begin}},
	}
}
