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
