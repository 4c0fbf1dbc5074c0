package github_test

import (
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/reporters/github"
	"github.com/ocr-ci/ocr/reporters/internal/reportertest"
)

func TestStepSummaryFoldsFindingsBelowTheFloor(t *testing.T) {
	r := floorReview()
	md := github.SummaryMarkdown(r, github.SummaryOptions{MinSeverity: "medium"})
	html := strings.Join(reportertest.Render(md).HTML, "")
	open := strings.Index(md, "<details><summary>Below the posting floor, medium (6)")
	if open < 0 || !strings.Contains(html, "Below the posting floor, medium (6)") {
		t.Fatalf("no folded section of the 6 low findings:\n%s", md)
	}
	above, below := md[:open], md[open:]
	if n := strings.Count(above, "| 🔵 low |"); n != 0 {
		t.Errorf("%d low finding(s) in the main table", n)
	}
	if n := strings.Count(below, "| 🔵 low |"); n != 6 {
		t.Errorf("the folded table has %d low findings, want 6", n)
	}
	if n := strings.Count(above, "| 🟡 medium |") + strings.Count(above, "| 🟠 high |") + strings.Count(above, "| 🔴 critical |"); n != 12 {
		t.Errorf("the main table has %d findings at or above the floor, want 12", n)
	}
	if strings.Count(md, "<details>") != strings.Count(md, "</details>") {
		t.Errorf("unbalanced <details>:\n%s", md)
	}
	if all := github.SummaryMarkdown(r, github.SummaryOptions{}); strings.Contains(all, "posting floor") {
		t.Errorf("without a floor nothing is folded:\n%s", all)
	}
}
