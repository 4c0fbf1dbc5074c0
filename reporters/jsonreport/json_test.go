package jsonreport_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/reporters/internal/reportertest"
	"github.com/ocr-ci/ocr/reporters/jsonreport"
)

func TestJSONGolden(t *testing.T) {
	for name, r := range reportertest.FixtureCases() {
		t.Run(name, func(t *testing.T) {
			for i := range r.Comments {
				r.Comments[i].Thinking = "SECRET-REASONING"
			}
			var buf bytes.Buffer
			if err := (&jsonreport.Reporter{W: &buf}).Report(context.Background(), r); err != nil {
				t.Fatal(err)
			}
			reportertest.AssertGolden(t, name+".json.golden", buf.Bytes())
			if strings.Contains(buf.String(), "SECRET-REASONING") {
				t.Error("the model's thinking leaked into the JSON report")
			}
			var doc map[string]json.RawMessage
			if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
				t.Fatal(err)
			}
			for _, k := range []string{"format_version", "tool", "version", "status", "mode", "base", "head", "comments", "files", "usage", "errors"} {
				if _, ok := doc[k]; !ok {
					t.Errorf("key %q missing", k)
				}
			}
			if string(doc["comments"]) == "null" || string(doc["errors"]) == "null" {
				t.Error("lists must be [] when empty, never null")
			}
		})
	}
}

// A comment whose quote matched several places says so: ambiguous, with
// the other places' start lines; an unambiguous one has false and [].
func TestJSONAmbiguous(t *testing.T) {
	r := reportertest.FixtureReview()
	r.Comments = r.Comments[:2]
	r.Comments[0].Candidates = []int{40, 88}
	r.Comments[1].Candidates = nil
	var buf bytes.Buffer
	if err := (&jsonreport.Reporter{W: &buf}).Report(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Comments []struct {
			Ambiguous  bool            `json:"ambiguous"`
			Candidates json.RawMessage `json:"candidates"`
		} `json:"comments"`
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	for i, want := range []struct {
		ambiguous  bool
		candidates string
	}{{true, "[40,88]"}, {false, "[]"}} {
		c := doc.Comments[i]
		var compact bytes.Buffer
		if err := json.Compact(&compact, c.Candidates); err != nil {
			t.Fatal(err)
		}
		if c.Ambiguous != want.ambiguous || compact.String() != want.candidates {
			t.Errorf("comment %d: ambiguous %v, candidates %s; want %v, %s", i, c.Ambiguous, compact.String(), want.ambiguous, want.candidates)
		}
	}
}
