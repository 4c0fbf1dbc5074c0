package build_test

import (
	"bytes"
	"testing"

	"github.com/ocr-ci/ocr/reporters/build"
	"github.com/ocr-ci/ocr/review/reportspec"
)

func TestSpecReporter(t *testing.T) {
	var buf bytes.Buffer
	for _, k := range reportspec.Kinds {
		rep, err := build.File(reportspec.Spec{Kind: k}, &buf, build.FileOptions{})
		if k.API() != (err != nil) || k.API() != (rep == nil) {
			t.Errorf("%s: reporter %T, error %v", k, rep, err)
		}
	}
}

// TestFallbackWhere names the fallback's places and the report files, in
// one sentence.
func TestFallbackWhere(t *testing.T) {
	sarif := []reportspec.Spec{{Kind: reportspec.KindSARIF, Path: "ocr.sarif"}}
	for _, c := range []struct {
		specs   []reportspec.Spec
		summary bool
		want    string
	}{
		{nil, false, "the annotations"},
		{nil, true, "the annotations and the step summary"},
		{sarif, true, "the annotations, the step summary and the SARIF file"},
	} {
		if got := build.FallbackWhere(c.specs, c.summary); got != c.want {
			t.Errorf("FallbackWhere(%v, %v) = %q, want %q", c.specs, c.summary, got, c.want)
		}
	}
}
