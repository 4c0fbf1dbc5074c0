package codequality_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/reporters/codequality"
	"github.com/ocr-ci/ocr/reporters/internal/reportertest"
	"github.com/ocr-ci/ocr/review"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

func TestCodeQualityGolden(t *testing.T) {
	schema := reportertest.CompileSchema(t, "codequality-schema.json")
	for name, r := range reportertest.FixtureCases() {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := (&codequality.Reporter{W: &buf}).Report(context.Background(), r); err != nil {
				t.Fatal(err)
			}
			reportertest.AssertGolden(t, name+".codequality.golden", buf.Bytes())
			reportertest.Validate(t, schema, buf.Bytes())
			var issues []struct {
				Severity  string `json:"severity"`
				CheckName string `json:"check_name"`
			}
			if err := json.Unmarshal(buf.Bytes(), &issues); err != nil {
				t.Fatal(err)
			}
			// a suppressed comment is left out: Code Quality cannot mark it
			if active := review.ActiveComments(r.Comments); len(issues) != len(active) {
				t.Errorf("%d issues for %d comments not suppressed", len(issues), len(active))
			}
			if len(issues) > 0 && name != "suppressed" && (issues[0].Severity != "blocker" || issues[0].CheckName != "ocr/go/security/critical") {
				t.Errorf("first issue = %+v, want the critical security finding as a blocker", issues[0])
			}
		})
	}
}

// TestCodeQualitySchemaRejects proves the schema check can fail.
func TestCodeQualitySchemaRejects(t *testing.T) {
	s := reportertest.CompileSchema(t, "codequality-schema.json")
	for _, bad := range []string{
		`[{"description":"x","check_name":"c","fingerprint":"f","severity":"low","location":{"path":"a","lines":{"begin":1}}}]`,
		`[{"description":"x","check_name":"c","fingerprint":"f","severity":"minor","location":{"path":"a","lines":{"begin":0}}}]`,
		`[{"description":"x","check_name":"c","severity":"minor","location":{"path":"a","lines":{"begin":1}}}]`,
	} {
		inst, err := jsonschema.UnmarshalJSON(strings.NewReader(bad))
		if err != nil {
			t.Fatal(err)
		}
		if s.Validate(inst) == nil {
			t.Errorf("accepted %s", bad)
		}
	}
}
