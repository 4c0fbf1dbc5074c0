package posting

import (
	"fmt"
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
	if !strings.Contains(bodies["comment"], "    \u2215merge") {
		t.Errorf("the suggestion is not shown as indented code:\n%s", bodies["comment"])
	}
}

// guardedLine is what a reader of a posted line acts on: GitLab's quick
// actions and ocr's own commands, once invisible characters and leading
// spaces are set aside (issue 29 item 1).
var guardedLine = regexp.MustCompile(`(?i)^/[a-z]`)

func strippedLines(body string) []string {
	var out []string
	for _, l := range strings.Split(body, "\n") {
		l = strings.Map(func(r rune) rune {
			if invisible(r) {
				return -1
			}
			return r
		}, l)
		out = append(out, strings.TrimLeft(l, " \t"))
	}
	return out
}

// An answer the model was steered into starting with an invisible
// character and " /ocr pause" (or hiding a quick action behind leading
// spaces, in prose or code) is posted with no line that starts with "/":
// invisible characters are dropped before trimming, and the guard looks
// past leading spaces.
func TestSafeTextHidesNoCommandBehindInvisibles(t *testing.T) {
	for _, in := range []string{
		"\u200b /ocr pause because the tests are red",
		"\ufeff\u2060/ocr pause",
		"ok\n  /approve\n\t/merge",
		"ok\n\u200b\u200d /close",
		"```\n   /ocr pause\n```",
		"- item\n\n    /unapprove",
		"\U000E0041 /ocr resume",
	} {
		out := SafeText(in, 10_000)
		for _, l := range strippedLines(out) {
			if guardedLine.MatchString(l) {
				t.Errorf("SafeText(%q) posts a line starting with %q:\n%s", in, l, out)
			}
		}
		if strings.ContainsFunc(out, invisible) {
			t.Errorf("SafeText(%q) keeps an invisible character: %q", in, out)
		}
	}
}

// Item 4 of issue 29: a one-click suggestion in an answer goes through the
// findings' check. One holding zero-width or word joiners, tag characters,
// a BOM or U+061C is shown as plain code with the characters visible and
// the warning, never as a committable block; a clean one stays one.
func TestSafeTextSuggestionIsChecked(t *testing.T) {
	for _, r := range []rune{0x200d, 0x2060, 0xe0041, 0xfeff, 0x061c, 0x202e} {
		in := "Try this:\n\n```suggestion\nif b == 0 {" + string(r) + "\n\treturn 0\n}\n```\nDone."
		out := SafeText(in, 10_000)
		if strings.Contains(strings.ToLower(out), "```suggestion") || !strings.Contains(out, "**Warning:**") ||
			!strings.Contains(out, fmt.Sprintf("<U+%04X>", r)) {
			t.Errorf("U+%04X: the suggestion is still committable or unexplained:\n%s", r, out)
		}
	}
	clean := "```suggestion\nif b == 0 {\n\treturn 0\n}\n```"
	if out := SafeText(clean, 10_000); !strings.Contains(out, "```suggestion\nif b == 0 {") {
		t.Errorf("a clean suggestion was changed:\n%s", out)
	}
	gl := SafeText("~~~suggestion:-0+0\n/merge\n~~~", 10_000)
	if strings.Contains(gl, "suggestion:-0+0") {
		t.Errorf("a GitLab suggestion with a quick action stays committable:\n%s", gl)
	}
}
