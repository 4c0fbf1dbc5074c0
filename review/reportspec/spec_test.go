package reportspec_test

import (
	"testing"

	"github.com/ocr-ci/ocr/review/reportspec"
)

func TestParse(t *testing.T) {
	for in, want := range map[string]reportspec.Spec{
		"sarif=ocr.sarif":    {Kind: reportspec.KindSARIF, Path: "ocr.sarif"},
		"sarif":              {Kind: reportspec.KindSARIF, Path: "ocr.sarif"},
		"json=-":             {Kind: reportspec.KindJSON, Path: "-"},
		"Text":               {Kind: reportspec.KindText, Path: "-"},
		"codequality":        {Kind: reportspec.KindCodeQuality, Path: "gl-code-quality-report.json"},
		"github-annotations": {Kind: reportspec.KindGitHubAnnotations, Path: "-"},
		"github-summary":     {Kind: reportspec.KindGitHubSummary},
		"github-review":      {Kind: reportspec.KindGitHubReview},
		"gitlab-discussion":  {Kind: reportspec.KindGitLabDiscussion},
		"json=out/a=b.json":  {Kind: reportspec.KindJSON, Path: "out/a=b.json"},
	} {
		got, err := reportspec.Parse(in)
		if err != nil || got != want {
			t.Errorf("Parse(%q) = %+v, %v; want %+v", in, got, err, want)
		}
	}
	for _, bad := range []string{"xml", "sarif=", "github-review=x", ""} {
		if _, err := reportspec.Parse(bad); err == nil {
			t.Errorf("Parse(%q) accepted", bad)
		}
	}
	specs, err := reportspec.ParseAll("sarif=a.sarif, json", "text")
	if err != nil || len(specs) != 3 || specs[1].Kind != reportspec.KindJSON || specs[2].Kind != reportspec.KindText {
		t.Errorf("ParseAll = %+v, %v", specs, err)
	}
}
