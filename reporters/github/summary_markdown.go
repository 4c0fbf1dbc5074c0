package github

import (
	"fmt"
	"html"
	"strings"

	"github.com/ocr-ci/ocr/reporters/posting"

	"github.com/ocr-ci/ocr/reporters"
	"github.com/ocr-ci/ocr/reporters/sarif"
	"github.com/ocr-ci/ocr/review"
)

// summaryMaxBytes keeps a step summary under GitHub's 1 MiB per step.
const summaryMaxBytes = 1_000_000

// SummaryOptions configures SummaryMarkdown.
type SummaryOptions struct {
	// ServerURL ("https://github.com") and Repository ("owner/repo") make
	// locations links to the file at the head commit (the base commit for
	// removed code); without them locations are plain text.
	ServerURL, Repository string
	// Heading is the first line's title; default "ocr review".
	Heading string
	// MaxBytes caps the output; default just under 1 MiB (use ~60,000 for a
	// GitHub comment body, whose limit is 65,536 characters).
	MaxBytes int
	// MinSeverity is the posting floor (--post-min-severity): findings
	// below it are listed in a folded section of their own; "" folds none.
	MinSeverity review.Severity
}

var severityIcons = map[review.Severity]string{
	review.SeverityCritical: "🔴", review.SeverityHigh: "🟠",
	review.SeverityMedium: "🟡", review.SeverityLow: "🔵",
}

// SummaryMarkdown renders the review as GitHub-flavoured Markdown: status,
// coverage, a table of findings with folded details, and usage. All model
// text and paths are escaped, except that the model's inline code spans
// show as code. Every part has a budget within MaxBytes: the
// files not reviewed and the errors take at most a quarter, the findings
// the rest, most severe first; what does not fit is counted in a closing
// note that points to the SARIF and JSON reports.
func SummaryMarkdown(r *review.Review, o SummaryOptions) string {
	limit := reporters.OrDefault(o.MaxBytes, summaryMaxBytes)
	ignored := ignoredNote(r.Comments)
	r = r.Active()
	head, tail := summaryHeader(r, o)+ignored, summaryTail(r)
	room := limit - len(head) - len(tail) - 300 // room for the omission note
	cov := summaryCoverage(r, room/4)
	findings, omitted := summaryFindings(r, o, room-len(cov))
	var b strings.Builder
	b.WriteString(head + cov + findings)
	if omitted > 0 {
		fmt.Fprintf(&b, "\n> %d finding(s) omitted to keep this summary under %d KiB; the SARIF and JSON reports list all of them.\n", omitted, limit/1024)
	}
	b.WriteString(tail)
	return b.String()
}

// summaryFindings is the findings table and their details, most severe
// first, as many as fit in budget bytes; omitted counts the others. The
// findings below the posting floor come last, folded in a section of
// their own (they are not posted on the pull request).
func summaryFindings(r *review.Review, o SummaryOptions, budget int) (md string, omitted int) {
	above, below := splitFloor(reporters.BySeverity(r.Comments), o.MinSeverity)
	md, shown := findingsTable(above, r, o, findingsHeader, budget)
	omitted = len(above) - shown
	if len(below) == 0 || omitted > 0 {
		return md, omitted + len(below)
	}
	head := fmt.Sprintf("\n<details><summary>Below the posting floor, %s (%d): not posted on the pull request</summary>\n\n%s",
		htmlText(string(o.MinSeverity)), len(below), tableHeader)
	fold, shownBelow := findingsTable(below, r, o, head, budget-len(md)-len(floorFoot))
	if shownBelow == 0 {
		return md, omitted + len(below)
	}
	return md + fold + floorFoot, len(below) - shownBelow
}

// floorFoot closes the folded section of the findings below the floor.
const floorFoot = "</details>\n"

// splitFloor splits cs at the posting floor; "" keeps them all above.
func splitFloor(cs []review.Comment, floor review.Severity) (above, below []review.Comment) {
	for _, c := range cs {
		if floor != "" && c.Severity.Rank() < floor.Rank() {
			below = append(below, c)
		} else {
			above = append(above, c)
		}
	}
	return above, below
}

// findingsTable is head, one row per finding and their details, as many
// as fit in budget bytes; shown counts them.
func findingsTable(comments []review.Comment, r *review.Review, o SummaryOptions, head string, budget int) (md string, shown int) {
	budget -= len(head) + 1
	var rows, details strings.Builder
	for _, c := range comments {
		row, det := findingRow(c, r, o), findingDetails(c)
		if len(row)+len(det) > budget {
			break
		}
		budget -= len(row) + len(det)
		rows.WriteString(row)
		details.WriteString(det)
		shown++
	}
	if shown == 0 {
		return "", 0
	}
	return head + rows.String() + "\n" + details.String(), shown
}

const (
	tableHeader    = "| Severity | Location | Category | Finding |\n| --- | --- | --- | --- |\n"
	findingsHeader = "\n### Findings\n\n" + tableHeader
)

func summaryHeader(r *review.Review, o SummaryOptions) string {
	heading := o.Heading
	if heading == "" {
		heading = "ocr review"
	}
	status := map[review.Status]string{review.StatusComplete: "✅ complete", review.StatusPartial: "⚠️ partial", review.StatusFailed: "❌ failed"}[r.Status]
	if status == "" {
		status = posting.MdText(string(r.Status))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "## %s: %s\n\n", posting.MdText(heading), status)
	fmt.Fprintf(&b, "%s", findingCounts(r.Comments))
	switch {
	case r.Head != "" && r.Base != "":
		fmt.Fprintf(&b, " in `%s..%s`", shortSHA(r.Base), shortSHA(r.Head))
	case r.Head != "":
		fmt.Fprintf(&b, " in `%s`", shortSHA(r.Head))
	}
	if r.Mode != "" {
		fmt.Fprintf(&b, " (%s)", posting.MdText(r.Mode))
	}
	b.WriteString(".\n")
	return b.String()
}

// findingCounts is "**3 findings**: 1 critical · 2 low" or "**No findings**".
func findingCounts(cs []review.Comment) string {
	if len(cs) == 0 {
		return "**No findings**"
	}
	n := reporters.SeverityCounts(cs)
	var parts []string
	for _, s := range reporters.SeverityOrder() {
		if n[s] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n[s], s))
		}
	}
	return fmt.Sprintf("**%d finding(s)**: %s", len(cs), strings.Join(parts, " · "))
}

func shortSHA(s string) string {
	if len(s) > 12 {
		s = s[:12]
	}
	return strings.ReplaceAll(s, "`", "")
}

// findingRow is one table row; the message's first line only.
func findingRow(c review.Comment, r *review.Review, o SummaryOptions) string {
	return fmt.Sprintf("| %s %s | %s | %s | %s |\n", severityIcons[c.Severity], posting.MdText(string(c.Severity)),
		locationLink(c, r, o), posting.MdText(string(c.Category)), mdInline(posting.FirstLine(c.Content, 160), true))
}

// locationLink links the location to the file at the head commit (base
// commit for removed code) when the repository is known.
func locationLink(c review.Comment, r *review.Review, o SummaryOptions) string {
	text := posting.MdText(locationText(c))
	path, sha := c.Path, r.Head
	if c.Side == review.SideOld {
		path, sha = reporters.OldPath(c.Location), r.Base
	}
	if o.ServerURL == "" || o.Repository == "" || sha == "" {
		return text
	}
	url := fmt.Sprintf("%s/%s/blob/%s/%s", strings.TrimRight(o.ServerURL, "/"), o.Repository, sha, sarif.RelativeURI(path))
	if !c.FileLevel() {
		url += "#L" + fmt.Sprint(c.StartLine)
		if c.EndLine > c.StartLine {
			url += fmt.Sprintf("-L%d", c.EndLine)
		}
	}
	return "[" + text + "](" + url + ")"
}

// locationText is "path:10-12", "path (file)" or "old/path:5-7 (removed)".
func locationText(c review.Comment) string {
	switch {
	case c.FileLevel():
		return c.Path + " (file)"
	case c.Side == review.SideOld:
		return reporters.OldPath(c.Location) + ":" + reporters.Span(c.StartLine, c.EndLine) + " (removed)"
	}
	return c.Path + ":" + reporters.Span(c.StartLine, c.EndLine)
}

// Bounds of one finding's details, so that one huge finding does not
// crowd out the others: its text is cut, and a suggestion is shown whole
// or not at all (a cut one would be wrong code).
const (
	detailMaxRunes      = 20000
	suggestionMaxBytes  = 32000
	suggestionTooLongMd = "\n" + posting.SuggestionTooLong
)

// findingDetails is the folded full text and suggestion of one finding.
func findingDetails(c review.Comment) string {
	var b strings.Builder
	fmt.Fprintf(&b, "<details><summary>%s %s · %s · %s</summary>\n\n%s\n", severityIcons[c.Severity],
		htmlText(string(c.Severity)), htmlText(string(c.Category)), htmlText(locationText(c)),
		mdCodeParagraphs(posting.TruncateRunes(c.Content, detailMaxRunes)))
	if c.Suggestion != "" {
		if code := posting.MdCodeBlock(c.Suggestion, ""); len(code) <= suggestionMaxBytes {
			b.WriteString("\n**Suggested change:**\n\n" + code)
		} else {
			b.WriteString(suggestionTooLongMd)
		}
	}
	b.WriteString("\n</details>\n\n")
	return b.String()
}

// htmlText escapes s for raw HTML such as <summary>, where Markdown escapes
// would show literally; brackets become entities so that even a renderer
// that parses Markdown there finds no link.
func htmlText(s string) string {
	s = strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || r == '\t' {
			return ' '
		}
		if reporters.IsUnsafeControl(r) {
			return -1
		}
		return r
	}, s)
	return strings.NewReplacer("@", "@\u2060", "#", "#\u2060", "[", "&#91;", "]", "&#93;").Replace(html.EscapeString(s))
}

// summaryTail reports dropped and filtered counts and usage.
func summaryTail(r *review.Review) string {
	var b strings.Builder
	if r.Dropped > 0 || r.Filtered > 0 {
		fmt.Fprintf(&b, "\n%d comment(s) dropped by the caps, %d removed by the reflection filter and dedupe.\n", r.Dropped, r.Filtered)
	}
	u := r.Usage
	fmt.Fprintf(&b, "\n### Usage\n\n%d model request(s) · %s prompt tokens · %s completion tokens", u.Requests, review.Thousands(u.PromptTokens), review.Thousands(u.CompletionTokens))
	if u.CachedTokens > 0 {
		fmt.Fprintf(&b, " · %d cached", u.CachedTokens)
	}
	if u.ReasoningTokens > 0 {
		fmt.Fprintf(&b, " · %d reasoning", u.ReasoningTokens)
	}
	if r.Cost != nil {
		fmt.Fprintf(&b, " · cost %s", r.Cost.String())
	}
	if !r.Started.IsZero() && r.Finished.After(r.Started) {
		fmt.Fprintf(&b, " · %s", r.Finished.Sub(r.Started).Round(1e9))
	}
	fmt.Fprintf(&b, "\n\n<sub>%s %s</sub>\n", htmlText(sarif.ToolName(r)), htmlText(r.Version))
	return b.String()
}
