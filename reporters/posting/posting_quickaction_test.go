package posting

import (
	"regexp"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/review"
)

// glQuickAction is the start of GitLab's quick-action pattern: "/" at the
// start of a line, then a command name, case-insensitive.
// https://gitlab.com/gitlab-org/gitlab/-/blob/master/lib/gitlab/quick_actions/extractor.rb
var glQuickAction = regexp.MustCompile(`(?mi)^/[a-z]`)

// Model text posted by ocr's account must never hold a line GitLab runs as
// a quick action (/approve, /merge ...) with that account's rights: not in
// prose, not in code blocks of any kind, not in suggestions.
func TestPostedBodiesHoldNoQuickAction(t *testing.T) {
	content := "Looks fine.\n/approve\n/MERGE\n~~~\n/label ~ok\n~~~\n```go\n/assign @me\n```\n" +
		"````\n```\n/unapprove\n````\n"
	suggestion := "x := 1\n```\n/merge\n"
	c := review.Comment{Location: review.Location{Path: "a.go", Side: review.SideNew, StartLine: 3, EndLine: 3, InHunk: true},
		Content: content, Suggestion: suggestion, Category: review.CategoryBug, Severity: review.SeverityHigh}
	bodies := map[string]string{}
	for _, suggest := range []bool{true, false} {
		p := Placement{Comment: c, FP: "fp", Kind: PlaceInline, Side: review.SideNew, Start: 3, End: 3, Suggest: suggest,
			Note: "/close\nmoved"}
		bodies["comment"] = CommentBody(p, Style{Flavor: FlavorGitLab})
		r := &review.Review{Tool: "ocr", Status: review.StatusComplete, Head: strings.Repeat("a", 40),
			Errors: []string{"/close"}, Files: []review.FileCoverage{{Path: "/approve", Reason: "x"}}}
		p.Kind = PlaceSummary
		bodies["summary"] = StickySummary(StickyInput{Review: r, Placements: []Placement{p}, Notes: []string{"/merge"}})
		for name, b := range bodies {
			if m := glQuickAction.FindString(b); m != "" {
				t.Errorf("%s (suggest=%v) has a quick action line %q:\n%s", name, suggest, m, b)
			}
		}
	}
	if !strings.Contains(bodies["comment"], `\/approve`) {
		t.Errorf("the prose line is not kept readable:\n%s", bodies["comment"])
	}
	if !strings.Contains(bodies["comment"], "    /merge") {
		t.Errorf("the suggestion is not shown as indented code:\n%s", bodies["comment"])
	}
}
