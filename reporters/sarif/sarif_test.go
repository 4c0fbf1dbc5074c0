package sarif_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/reporters/internal/reportertest"
	"github.com/ocr-ci/ocr/reporters/sarif"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/ocr-ci/ocr/review"
)

func sarifLog(t *testing.T, s *sarif.Reporter, r *review.Review) []byte {
	t.Helper()
	var buf bytes.Buffer
	s.W = &buf
	if err := s.Report(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestSARIFGolden(t *testing.T) {
	schema := reportertest.CompileSchema(t, "sarif-schema-2.1.0.json")
	for name, r := range reportertest.FixtureCases() {
		t.Run(name, func(t *testing.T) {
			got := sarifLog(t, &sarif.Reporter{RepositoryURI: "https://github.com/acme/shop"}, r)
			reportertest.AssertGolden(t, name+".sarif.golden", got)
			reportertest.Validate(t, schema, got)
		})
	}
}

// TestSARIFGoldensValid validates every checked-in SARIF golden, including
// ones other tests write.
func TestSARIFGoldensValid(t *testing.T) {
	schema := reportertest.CompileSchema(t, "sarif-schema-2.1.0.json")
	files, _ := filepath.Glob("testdata/*.sarif.golden")
	if len(files) == 0 {
		t.Fatal("no SARIF goldens")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(filepath.Base(f), func(t *testing.T) { reportertest.Validate(t, schema, data) })
	}
}

// sarifDoc is the part of a log the assertions below read.
type sarifDoc struct {
	Runs []struct {
		Tool struct {
			Driver struct {
				Name, Version, SemanticVersion string
				Rules                          []struct {
					ID         string
					Properties map[string]any
				}
			}
		}
		AutomationDetails struct{ ID string }
		Invocations       []struct {
			ExecutionSuccessful        bool
			ToolExecutionNotifications []struct {
				Level   string
				Message struct{ Text string }
			}
		}
		Results []struct {
			RuleID              string
			RuleIndex           int
			Level               string
			Message             struct{ Text string }
			PartialFingerprints map[string]string
			Fixes               []any
			Locations           []struct {
				PhysicalLocation struct {
					ArtifactLocation struct{ URI, URIBaseID string }
					Region           struct{ StartLine, EndLine int }
				}
			}
		}
	}
}

func decodeSARIF(t *testing.T, data []byte) sarifDoc {
	t.Helper()
	var d sarifDoc
	if err := json.Unmarshal(data, &d); err != nil {
		t.Fatal(err)
	}
	if len(d.Runs) != 1 {
		t.Fatalf("runs = %d, want 1", len(d.Runs))
	}
	return d
}

func TestSARIFContent(t *testing.T) {
	r := reportertest.FixtureReview()
	d := decodeSARIF(t, sarifLog(t, &sarif.Reporter{Category: "ai-review"}, r))
	run := d.Runs[0]
	if run.Tool.Driver.Name != "ocr" || run.Tool.Driver.SemanticVersion != "0.3.0" || run.AutomationDetails.ID != "ai-review/" {
		t.Errorf("driver/automation = %+v %q", run.Tool.Driver, run.AutomationDetails.ID)
	}
	if len(run.Results) != len(r.Comments) {
		t.Fatalf("results = %d, want %d", len(run.Results), len(r.Comments))
	}
	fps := map[string]bool{}
	for i, res := range run.Results {
		loc := res.Locations[0].PhysicalLocation
		if loc.Region.StartLine < 1 || loc.ArtifactLocation.URIBaseID != "%SRCROOT%" || strings.HasPrefix(loc.ArtifactLocation.URI, "/") {
			t.Errorf("result %d location %+v", i, loc)
		}
		if run.Tool.Driver.Rules[res.RuleIndex].ID != res.RuleID {
			t.Errorf("result %d ruleIndex %d points at %q, want %q", i, res.RuleIndex, run.Tool.Driver.Rules[res.RuleIndex].ID, res.RuleID)
		}
		fp := res.PartialFingerprints["ocr/v1"]
		if fp == "" || fps[fp] {
			t.Errorf("result %d fingerprint %q empty or repeated", i, fp)
		}
		fps[fp] = true
	}
	byRule := map[string]string{}
	for _, res := range run.Results {
		byRule[res.RuleID] = res.Message.Text + fmt.Sprint(len(res.Fixes)) + res.Level
	}
	for rule, want := range map[string]string{
		"ocr/go/security/critical": "1error",   // exact new-side range: one fix
		"ocr/go/bug":               "0error",   // outside the hunk: no fix
		"ocr/documentation":        "0note",    // file-level
		"ocr/go/maintainability":   "0warning", // old side
	} {
		if !strings.HasSuffix(byRule[rule], want) {
			t.Errorf("%s: %q does not end with %q", rule, byRule[rule], want)
		}
	}
	if !strings.HasPrefix(byRule["ocr/documentation"], "File-level finding") || !strings.Contains(byRule["ocr/go/maintainability"], "removed code (lines 5-7 of the old version of pkg/old_util.go") {
		t.Errorf("placement not explained: %q / %q", byRule["ocr/documentation"], byRule["ocr/go/maintainability"])
	}
	for _, rule := range run.Tool.Driver.Rules {
		if rule.ID == "ocr/go/security/critical" && rule.Properties["security-severity"] != "9.5" {
			t.Errorf("security-severity = %v", rule.Properties["security-severity"])
		}
	}
	inv := run.Invocations[0]
	if inv.ExecutionSuccessful {
		t.Error("partial review reported as successful")
	}
	if !strings.Contains(fmt.Sprint(inv.ToolExecutionNotifications), "api/handler.go was not reviewed (reason: timeout)") {
		t.Errorf("notifications do not name the unreviewed file: %+v", inv.ToolExecutionNotifications)
	}
}

func TestSARIFStableAcrossLineMoves(t *testing.T) {
	a := decodeSARIF(t, sarifLog(t, &sarif.Reporter{}, reportertest.FixtureReview()))
	moved := reportertest.FixtureReview()
	for i := range moved.Comments {
		if !moved.Comments[i].FileLevel() {
			moved.Comments[i].StartLine += 5
			moved.Comments[i].EndLine += 5
		}
	}
	b := decodeSARIF(t, sarifLog(t, &sarif.Reporter{}, moved))
	for i := range a.Runs[0].Results {
		ra, rb := a.Runs[0].Results[i], b.Runs[0].Results[i]
		if ra.RuleID != rb.RuleID || ra.PartialFingerprints["ocr/v1"] != rb.PartialFingerprints["ocr/v1"] {
			t.Errorf("result %d identity changed when lines moved: %s %v vs %s %v", i, ra.RuleID, ra.PartialFingerprints, rb.RuleID, rb.PartialFingerprints)
		}
	}
}

func TestSARIFLimits(t *testing.T) {
	r := reportertest.FixtureReview()
	d := decodeSARIF(t, sarifLog(t, &sarif.Reporter{MaxResults: 2}, r))
	if n := len(d.Runs[0].Results); n != 2 {
		t.Fatalf("results = %d, want 2", n)
	}
	reportertest.AssertGolden(t, "limits.sarif.golden", sarifLog(t, &sarif.Reporter{MaxResults: 2}, r))
	if d.Runs[0].Results[0].Level != "error" || d.Runs[0].Results[0].RuleID != "ocr/go/security/critical" {
		t.Errorf("the most severe result was not kept first: %+v", d.Runs[0].Results[0].RuleID)
	}
	if !strings.Contains(fmt.Sprint(d.Runs[0].Invocations[0].ToolExecutionNotifications), "4 least severe result(s) were left out") {
		t.Errorf("no cut notification: %+v", d.Runs[0].Invocations[0].ToolExecutionNotifications)
	}
	full := sarifLog(t, &sarif.Reporter{}, r)
	small := sarifLog(t, &sarif.Reporter{MaxGzipBytes: reportertest.GzipLen(t, full) - 1}, r)
	ds := decodeSARIF(t, small)
	if n := len(ds.Runs[0].Results); n >= len(r.Comments) || reportertest.GzipLen(t, small) >= reportertest.GzipLen(t, full) {
		t.Errorf("size cap kept %d of %d results", n, len(r.Comments))
	}
	reportertest.Validate(t, reportertest.CompileSchema(t, "sarif-schema-2.1.0.json"), small)
}

// TestSARIFSchemaRejects proves the schema check can fail.
func TestSARIFSchemaRejects(t *testing.T) {
	s := reportertest.CompileSchema(t, "sarif-schema-2.1.0.json")
	bad := `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"ocr"}},"results":[{"message":{"text":"x"},"locations":[{"physicalLocation":{"region":{"startLine":0}}}]}]}]}`
	inst, err := jsonschema.UnmarshalJSON(strings.NewReader(bad))
	if err != nil {
		t.Fatal(err)
	}
	if s.Validate(inst) == nil {
		t.Error("a region with startLine 0 passed the SARIF schema")
	}
}
