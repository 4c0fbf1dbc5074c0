package jsonreport_test

import (
	"bytes"
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ocr-ci/ocr/reporters/internal/reportertest"
	"github.com/ocr-ci/ocr/reporters/jsonreport"
	"github.com/ocr-ci/ocr/review"
)

// TestDecodeRoundTrip proves the report keeps everything a merge needs: a
// review written and read back is the review, less what is never written
// (the model's reasoning, the ambiguous candidates).
func TestDecodeRoundTrip(t *testing.T) {
	for name, r := range reportertest.FixtureCases() {
		t.Run(name, func(t *testing.T) {
			r.Shard, r.Config = &review.Shard{Index: 2, Total: 4}, "cafe1234"
			r.Started = time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC)
			r.Finished = r.Started.Add(time.Minute)
			r.Rules = []review.Rule{{ID: "ocr/go", Title: "Go", Description: "d", Help: "h", Tags: []string{"go"}}}
			var buf bytes.Buffer
			if err := (&jsonreport.Reporter{W: &buf}).Report(context.Background(), r); err != nil {
				t.Fatal(err)
			}
			got, err := jsonreport.Decode(buf.Bytes())
			if err != nil {
				t.Fatal(err)
			}
			want := *r
			want.Comments = append([]review.Comment{}, r.Comments...)
			for i := range want.Comments {
				want.Comments[i].Thinking = "" // not in the JSON report
				if len(want.Comments[i].Candidates) == 0 {
					want.Comments[i].Candidates = nil
				}
			}
			if len(want.Errors) == 0 {
				want.Errors = []string{}
			}
			if !reflect.DeepEqual(got, &want) {
				t.Errorf("round trip differs:\n got %+v\nwant %+v", got, &want)
			}
		})
	}
}

func TestDecodeRefusesOtherFiles(t *testing.T) {
	for _, in := range []string{`{"runs": []}`, `not json`, `{"format_version": 2, "tool": "ocr"}`} {
		if _, err := jsonreport.Decode([]byte(in)); err == nil || !strings.Contains(err.Error(), "ocr JSON report") {
			t.Errorf("Decode(%q) = %v, want a refusal naming the expected file", in, err)
		}
	}
}
