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
