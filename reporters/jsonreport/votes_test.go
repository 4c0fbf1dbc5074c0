package jsonreport_test

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/reporters/internal/reportertest"
	"github.com/ocr-ci/ocr/reporters/jsonreport"
	"github.com/ocr-ci/ocr/review"
)

// votedReview is the fixture as a review of three passes would have it.
func votedReview() *review.Review {
	r := reportertest.FixtureReview()
	for i := range r.Comments {
		r.Comments[i].Votes = &review.Votes{Found: 2 + i%2, Passes: 3}
	}
	r.Outvoted = 7
	r.Passes = []review.Pass{{Usage: review.Usage{Requests: 4, PromptTokens: 900}}, {Usage: review.Usage{Requests: 5, PromptTokens: 950}},
		{Usage: review.Usage{Requests: 4, PromptTokens: 910}}}
	return r
}

// TestVotesWrittenAndReadBack: a review of several passes records each
// finding's votes as "k/N", the outvoted count and each pass's usage, and
// Decode (ocr merge) reads them back; a review of one pass writes none.
func TestVotesWrittenAndReadBack(t *testing.T) {
	r := votedReview()
	var buf bytes.Buffer
	if err := (&jsonreport.Reporter{W: &buf}).Report(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	var raw struct {
		Outvoted int
		Passes   []map[string]any
		Comments []map[string]any
	}
	if err := json.Unmarshal(buf.Bytes(), &raw); err != nil {
		t.Fatal(err)
	}
	if raw.Comments[0]["votes"] != "2/3" || raw.Comments[1]["votes"] != "3/3" || raw.Outvoted != 7 || len(raw.Passes) != 3 {
		t.Errorf("votes not written as k/N: %v %v, outvoted %d, %d passes", raw.Comments[0]["votes"], raw.Comments[1]["votes"], raw.Outvoted, len(raw.Passes))
	}
	got, err := jsonreport.Decode(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Comments[0].Votes, r.Comments[0].Votes) || !reflect.DeepEqual(got.Passes, r.Passes) || got.Outvoted != 7 {
		t.Errorf("read back votes %v, passes %v, outvoted %d", got.Comments[0].Votes, got.Passes, got.Outvoted)
	}
	buf.Reset()
	if err := (&jsonreport.Reporter{W: &buf}).Report(context.Background(), reportertest.FixtureReview()); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{`"votes"`, `"outvoted"`, `"passes"`} {
		if strings.Contains(buf.String(), key) {
			t.Errorf("a review of one pass wrote %s", key)
		}
	}
}

// TestVotesRefusesNonsense: a hand-edited report with impossible votes is
// refused with the value named, not read as 0/0.
func TestVotesRefusesNonsense(t *testing.T) {
	for _, v := range []string{`"4/3"`, `"0/3"`, `"two"`, `3`} {
		var got review.Votes
		err := json.Unmarshal([]byte(v), &got)
		if err == nil || !strings.Contains(err.Error(), "votes") {
			t.Errorf("votes %s: err %v, want a refusal naming votes", v, err)
		}
	}
}
