package sarif

import (
	"fmt"
	"math"
	"net/url"
	"strings"

	"github.com/ocr-ci/ocr/reporters"

	"github.com/owenrumney/go-sarif/v3/pkg/report/v210/sarif"

	"github.com/ocr-ci/ocr/review"
)

// srcRoot is the uriBaseId of repository-relative URIs (the checkout root).
const srcRoot = "%SRCROOT%"

// sarifResult converts one comment.
func sarifResult(c review.Comment, ruleIndex int, fingerprint string) *sarif.Result {
	res := sarif.NewResult()
	id := reporters.RuleID(c)
	res.RuleID = &id
	res.RuleIndex = ruleIndex
	res.Level = sarifLevel(c.Severity)
	res.Message = sarif.NewTextMessage(sarifMessage(c))
	res.Locations = []*sarif.Location{sarifLocation(c)}
	res.PartialFingerprints = map[string]string{fingerprintKey: fingerprint}
	props := sarif.NewPropertyBag()
	props.Add("category", string(c.Category)).Add("severity", string(c.Severity))
	if c.Method != "" {
		props.Add("anchor", string(c.Method))
	}
	if c.Votes != nil {
		// rank (§3.27.24): 0.0-100.0, the share of the passes that found it.
		res.Rank = math.Round(c.Votes.Share()*1000) / 10
		props.Add("votes", c.Votes.String())
	}
	res.Properties = props
	res.Suppressions = sarifSuppressions(c)
	if fix := sarifFix(c); fix != nil {
		res.Fixes = []*sarif.Fix{fix}
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
// SARIF's doc comment for file-level and old-side findings.
func sarifLocation(c review.Comment) *sarif.Location {
	region := sarif.NewRegion().WithStartLine(1)
	if !c.FileLevel() && c.Side != review.SideOld {
		region.WithStartLine(max(c.StartLine, 1))
		if c.EndLine > c.StartLine {
			region.WithEndLine(c.EndLine)
		}

	}
	phys := sarif.NewPhysicalLocation().WithArtifactLocation(artifactLocation(c.Path)).WithRegion(region)
	return sarif.NewLocation().WithPhysicalLocation(phys)
}

// artifactLocation is a repository-relative, percent-encoded URI.
func artifactLocation(path string) *sarif.ArtifactLocation {
	return sarif.NewArtifactLocation().WithURI(RelativeURI(path)).WithURIBaseID(srcRoot)
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
func sarifFix(c review.Comment) *sarif.Fix {
	if c.Suggestion == "" || c.Side != review.SideNew || !c.InHunk || c.FileLevel() {
		return nil
	}
	region := sarif.NewRegion().WithStartLine(c.StartLine).WithEndLine(max(c.EndLine, c.StartLine))
	// A region without columns ends before the last line's newline.
	inserted := sarif.NewArtifactContent().WithText(strings.TrimSuffix(c.Suggestion, "\n"))
	rep := sarif.NewReplacement().WithDeletedRegion(region).WithInsertedContent(inserted)
	change := sarif.NewArtifactChange().WithArtifactLocation(artifactLocation(c.Path))
	change.Replacements = []*sarif.Replacement{rep}
	fix := sarif.NewFix().WithDescription(sarif.NewTextMessage("Apply the suggested change."))
	fix.ArtifactChanges = []*sarif.ArtifactChange{change}
	return fix
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
