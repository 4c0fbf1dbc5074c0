package github

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/ocr-ci/ocr/reporters"
	"github.com/ocr-ci/ocr/review"
)

// Summary appends the review as Markdown to the GitHub step summary
// ($GITHUB_STEP_SUMMARY, opened for appending by reporters.Open).
type Summary struct {
	W       io.Writer
	Options SummaryOptions
}

var _ reporters.Reporter = (*Summary)(nil)

// Report writes SummaryMarkdown to W.
func (s *Summary) Report(_ context.Context, r *review.Review) error {
	if _, err := io.WriteString(s.W, SummaryMarkdown(r, s.Options)); err != nil {
		return fmt.Errorf("could not write the step summary: %w", err)
	}
	return nil
}

// AppendSummary appends Markdown to the step summary file at path
// (GITHUB_STEP_SUMMARY), as reporters.AppendFile opens it.
func AppendSummary(path, markdown string) error {
	f, err := reporters.Files{}.AppendFile(path)
	if err != nil {
		return err
	}
	_, err = f.WriteString(markdown)
	return errors.Join(err, f.Close())
}
