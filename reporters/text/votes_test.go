package text_test

import (
	"bytes"
	"context"
	"strconv"
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

// TestTextShowsEachPass: a review of three passes says what the vote kept
// and left out, and what each pass and the filter after the vote cost, in
// lines that add up to the total.
func TestTextShowsEachPass(t *testing.T) {
	r := reportertest.FixtureReview()
	prices := review.Prices{Input: 2.5, Output: 10}
	pass := review.Usage{Requests: 2, PromptTokens: 3000, CompletionTokens: 80}
	for range 3 {
		r.Passes = append(r.Passes, review.Pass{Usage: pass, Cost: review.NewCost(prices, pass)})
	}
	r.Outvoted = 1
	r.Usage = review.Usage{Requests: 7, PromptTokens: 9800, CompletionTokens: 280}
	r.Cost = review.NewCost(prices, r.Usage)
	var buf bytes.Buffer
	if err := (&text.Reporter{W: &buf}).Report(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{
		"3 passes: the vote kept " + strconv.Itoa(len(r.Comments)) + " finding(s) and left out 1",
		"  pass 1/3: 2 request(s), 3,000 prompt + 80 completion tokens, cost 0.0083\n",
		"  pass 3/3: 2 request(s)",
		"  after the vote (the filter): 1 request(s), 800 prompt + 40 completion tokens, cost 0.0024\n",
		": 7 request(s), 9,800 prompt + 280 completion tokens",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the report does not say %q:\n%s", want, out)
		}
	}
}
