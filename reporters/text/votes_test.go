package text_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/reporters/internal/reportertest"
	"github.com/ocr-ci/ocr/reporters/text"
	"github.com/ocr-ci/ocr/review"
)

// TestTextShowsVotes: a finding of a review of several passes says how
// many passes found it; one of a single pass says nothing of passes.
func TestTextShowsVotes(t *testing.T) {
	r := reportertest.FixtureReview()
	r.Comments[0].Votes = &review.Votes{Found: 2, Passes: 3}
	var buf bytes.Buffer
	if err := (&text.Reporter{W: &buf}).Report(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(buf.String(), "found by 2/3 passes"); n != 1 {
		t.Errorf("%d lines say the votes, want the one voted finding's:\n%s", n, buf.String())
	}
	if strings.Count(buf.String(), "passes") != 1 {
		t.Errorf("a finding without votes mentions passes:\n%s", buf.String())
	}
}
