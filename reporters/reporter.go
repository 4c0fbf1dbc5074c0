// Package reporters sends a finished review to its audiences: files (SARIF,
// Code Quality, JSON, text), the GitHub Actions log and step summary, and
// pull/merge request comments. Reporters run after the review is complete.
package reporters

import (
	"context"
	"errors"

	"github.com/ocr-ci/ocr/review"
)

// Reporter publishes a finished review.
type Reporter interface {
	Report(ctx context.Context, r *review.Review) error
}

// Multi fans a review out to every reporter, running all of them even when
// one fails, and joins their errors.
type Multi []Reporter

var _ Reporter = Multi(nil)

// Report runs every reporter in order.
func (m Multi) Report(ctx context.Context, r *review.Review) error {
	var errs []error
	for _, rep := range m {
		if err := rep.Report(ctx, r); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
