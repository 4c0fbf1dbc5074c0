package main

import (
	"testing"

	"github.com/ocr-ci/ocr/reporters/posting"
	"github.com/ocr-ci/ocr/review"
)

// TestSettingsReachThePostingPlan: a setting's --post-min-severity and
// --max-inline change what the harness counts as posted (ocr review ignores
// them without a pull request); other settings get ocr's defaults.
func TestSettingsReachThePostingPlan(t *testing.T) {
	sts, err := parseSettings("post-min-severity=low,max-inline=3;passes=3")
	if err != nil {
		t.Fatal(err)
	}
	got, def := planOptions(sts[0].Flags), planOptions(sts[1].Flags)
	if got.MinSeverity != review.SeverityLow || got.MaxInline != 3 {
		t.Errorf("post-min-severity=low,max-inline=3: floor %s, budget %d", got.MinSeverity, got.MaxInline)
	}
	if def.MinSeverity != posting.DefaultMinSeverity || def.MaxInline != posting.DefaultMaxInline {
		t.Errorf("passes=3: floor %s, budget %d; want ocr's defaults", def.MinSeverity, def.MaxInline)
	}
}
