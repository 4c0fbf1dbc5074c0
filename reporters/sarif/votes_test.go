package sarif_test

import (
	"encoding/json"
	"testing"

	"github.com/ocr-ci/ocr/reporters/internal/reportertest"
	"github.com/ocr-ci/ocr/reporters/sarif"
	"github.com/ocr-ci/ocr/review"
)

// TestSARIFVotes: a finding of a review of several passes carries its
// votes in properties.votes and their share in rank (0-100), and the log
// stays valid SARIF 2.1.0; a review of one pass has neither.
func TestSARIFVotes(t *testing.T) {
	schema := reportertest.CompileSchema(t, "sarif-schema-2.1.0.json")
	r := reportertest.FixtureReview()
	r.Comments[0].Votes = &review.Votes{Found: 2, Passes: 3}
	r.Comments[1].Votes = &review.Votes{Found: 3, Passes: 3}
	data := sarifLog(t, &sarif.Reporter{}, r)
	reportertest.Validate(t, schema, data)
	var doc struct {
		Runs []struct {
			Results []struct {
				Rank       *float64
				Properties map[string]any
			}
		}
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{"2/3": 66.7, "3/3": 100}
	voted := 0
	for _, res := range doc.Runs[0].Results {
		v, _ := res.Properties["votes"].(string)
		switch rank, ok := want[v]; {
		case ok && (res.Rank == nil || *res.Rank != rank):
			t.Errorf("votes %s: rank %v, want %v", v, res.Rank, rank)
		case ok:
			voted++
		case res.Rank != nil || res.Properties["votes"] != nil:
			t.Errorf("a finding without votes has rank %v, votes %v", *res.Rank, res.Properties["votes"])
		}
	}
	if voted != 2 {
		t.Errorf("%d results carry votes, want 2", voted)
	}
}
