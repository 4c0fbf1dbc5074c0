package sarif

import (
	"fmt"
	"math"
	"net/url"
	"strings"

	"github.com/ocr-ci/ocr/reporters"
	"github.com/ocr-ci/ocr/review"
)

// srcRoot is the uriBaseId of repository-relative URIs (the checkout root).
const srcRoot = "%SRCROOT%"

// sarifResult converts one comment.
func sarifResult(c review.Comment, ruleIndex int, fingerprint string) result {
	res := result{
		Kind:                "fail",
		Level:               sarifLevel(c.Severity),
		Locations:           []location{sarifLocation(c)},
		Message:             message{Text: sarifMessage(c)},
		PartialFingerprints: map[string]string{fingerprintKey: fingerprint},
		Properties:          resultProperties{Anchor: string(c.Method), Category: string(c.Category), Severity: string(c.Severity)},
		RuleID:              reporters.RuleID(c),
		RuleIndex:           ruleIndex,
		Suppressions:        sarifSuppressions(c),
	}
	if c.Votes != nil {
		// rank (§3.27.24): 0.0-100.0, the share of the passes that found it.
		rank := math.Round(c.Votes.Share()*1000) / 10
		res.Rank = &rank
		res.Properties.Votes = c.Votes.String()
	}
	if f, ok := sarifFix(c); ok {
		res.Fixes = []fix{f}
	}
	return res
}

// sarifMessage is the comment's text, prefixed with where it really applies
// when the region cannot show it (file-level or removed code).
func sarifMessage(c review.Comment) string {
	text := sarifEscape(strings.TrimSpace(c.Content))
	if text == "" {
		text = "(no message)"
	}
	switch {
	case c.FileLevel():
		return "File-level finding (placed on line 1; not tied to a line): " + text
	case c.Side == review.SideOld:
		return fmt.Sprintf("About removed code (%s of the old version of %s; placed on line 1): %s",
			reporters.LineSpan(c.StartLine, c.EndLine), reporters.OldPath(c.Location), text)
	}
	return text
}

// sarifLocation places the comment on the head version of the file; see
// Reporter's doc comment for file-level and old-side findings.
func sarifLocation(c review.Comment) location {
	reg := &region{StartLine: 1}
	if !c.FileLevel() && c.Side != review.SideOld {
		reg.StartLine = max(c.StartLine, 1)
		if c.EndLine > c.StartLine {
			reg.EndLine = &c.EndLine
		}
	}
	return location{PhysicalLocation: physicalLocation{ArtifactLocation: artifactAt(c.Path), Region: reg}}
}

// artifactAt is a repository-relative, percent-encoded URI.
func artifactAt(path string) artifactLocation {
	return artifactLocation{URI: RelativeURI(path), URIBaseID: srcRoot}
}

// RelativeURI percent-encodes every segment of a slash-separated path;
// ':' is encoded too so a first segment never reads as a URI scheme.
func RelativeURI(path string) string {
	segs := strings.Split(strings.TrimPrefix(path, "/"), "/")
	for i, s := range segs {
		segs[i] = strings.ReplaceAll(url.PathEscape(s), ":", "%3A")
	}
	return strings.Join(segs, "/")
}

// sarifFix proposes the suggestion as a replacement of whole lines, only
// when its range is exact: new side, inside one hunk.
func sarifFix(c review.Comment) (fix, bool) {
	if c.Suggestion == "" || c.Side != review.SideNew || !c.InHunk || c.FileLevel() {
		return fix{}, false
	}
	end := max(c.EndLine, c.StartLine)
	// A region without columns ends before the last line's newline.
	rep := replacement{
		DeletedRegion:   region{StartLine: c.StartLine, EndLine: &end},
		InsertedContent: artifactContent{Text: strings.TrimSuffix(c.Suggestion, "\n")},
	}
	change := artifactChange{ArtifactLocation: artifactAt(c.Path), Replacements: []replacement{rep}}
	return fix{ArtifactChanges: []artifactChange{change}, Description: message{Text: "Apply the suggested change."}}, true
}

// sarifEscape escapes literal brackets (SARIF §3.11.6) when the text holds
// something shaped like an embedded link "[text](target)", so viewers cannot
// render model text as a link; other text keeps its brackets readable.
func sarifEscape(s string) string {
	if !strings.Contains(s, "](") {
		return s
	}
	return strings.NewReplacer(`\[`, `\\\[`, `\]`, `\\\]`, "[", `\[`, "]", `\]`).Replace(s)
}
