package reporters

import (
	"fmt"
	"html"
	"strings"

	"github.com/ocr-ci/ocr/internal/review"
)

// maxSummary keeps the sticky summary under GitHub's 65,536-character limit.
const maxSummary = 65000

// resolvedItem is a finding an earlier run posted that this run no longer
// reports.
type resolvedItem struct {
	Path string
	Link string // URL of the comment, when the platform gives one
}

// stickyInput is everything the sticky summary shows.
type stickyInput struct {
	Review     *review.Review
	Placements []placement
	Resolved   []resolvedItem
	State      State
	Notes      []string // problems while posting, shown to people
}

// stickySummary renders the sticky summary comment. It holds no times or
// durations, so an unchanged review renders byte-identical and a re-run
// does not edit it.
func stickySummary(in stickyInput) string {
	var b strings.Builder
	b.WriteString(summaryMarker + "\n")
	writeSummaryHead(&b, in)
	tail := "\n" + stateMarker(in.State)
	rest := summaryRest(in)
	if b.Len()+len(rest)+len(tail) > maxSummary {
		rest = postCut(rest, maxSummary-b.Len()-len(tail)-200) +
			"\n\nThe summary was cut to fit the 65,536-character limit; the SARIF and JSON reports hold every finding.\n"
	}
	b.WriteString(rest)
	b.WriteString(tail)
	return b.String()
}

func writeSummaryHead(b *strings.Builder, in stickyInput) {
	r := in.Review
	fmt.Fprintf(b, "## %s review\n\n", postOr(r.Tool, "ocr"))
	reviewed := 0
	for _, f := range r.Files {
		if f.Reviewed {
			reviewed++
		}
	}
	fmt.Fprintf(b, "**Status:** %s · %d of %d files reviewed", postOr(string(r.Status), "unknown"), reviewed, len(r.Files))
	if len(r.Head) >= 7 {
		fmt.Fprintf(b, " · head `%s`", r.Head[:7])
	}
	b.WriteString("\n\n")
	counts := map[review.Severity]int{}
	for _, c := range r.Comments {
		counts[c.Severity]++
	}
	b.WriteString("| Severity | Findings |\n|---|---:|\n")
	for _, s := range []review.Severity{review.SeverityCritical, review.SeverityHigh, review.SeverityMedium, review.SeverityLow} {
		fmt.Fprintf(b, "| %s | %d |\n", postSeverity(s), counts[s])
	}
	kinds := map[placeKind]int{}
	for _, p := range in.Placements {
		kinds[p.Kind]++
	}
	// Counted the same whether posted by this run or an earlier one, so a
	// re-run renders the same summary.
	fmt.Fprintf(b, "\n%d posted as review comments, %d listed in this summary.\n",
		kinds[placeInline]+kinds[placeFile]+kinds[placePosted], kinds[placeSummary])
}

func summaryRest(in stickyInput) string {
	var b strings.Builder
	for _, n := range in.Notes {
		fmt.Fprintf(&b, "\n> [!WARNING]\n> %s\n", postSafe(n))
	}
	writeUnplaced(&b, in.Placements)
	writeResolved(&b, in.Resolved)
	writeCoverage(&b, in.Review)
	u := in.Review.Usage
	fmt.Fprintf(&b, "\n"+usagePrefix+"%d requests, %d prompt + %d completion tokens.</sub>\n",
		u.Requests, u.PromptTokens, u.CompletionTokens)
	return b.String()
}

func writeUnplaced(b *strings.Builder, ps []placement) {
	var un []placement
	for _, p := range ps {
		if p.Kind == placeSummary {
			un = append(un, p)
		}
	}
	if len(un) == 0 {
		return
	}
	fmt.Fprintf(b, "\n### Findings not placed in the diff (%d)\n\n", len(un))
	for _, p := range un {
		// <summary> is raw HTML: Markdown does not render there, so plain
		// escaped text.
		fmt.Fprintf(b, "<details><summary>%s · %s · %s</summary>\n\n", postSeverity(p.Severity),
			html.EscapeString(string(p.Category)), html.EscapeString(strings.ReplaceAll(postLocation(p.Comment), "`", "")))
		b.WriteString(postCut(postSafe(strings.TrimSpace(p.Content)), 4000))
		b.WriteString("\n")
		if p.Suggestion != "" {
			q := p
			q.Suggest = false
			b.WriteString("\n" + postCut(suggestionBlock(q, flavorGitHub), 4000))
		}
		if p.Note != "" {
			fmt.Fprintf(b, "\n<sub>%s</sub>\n", postSafe(p.Note))
		}
		b.WriteString("\n</details>\n")
	}
}

func writeResolved(b *strings.Builder, rs []resolvedItem) {
	if len(rs) == 0 {
		return
	}
	fmt.Fprintf(b, "\n### Resolved since the last run (%d)\n\n", len(rs))
	for _, r := range rs {
		path := "`" + strings.ReplaceAll(r.Path, "`", "") + "`"
		if r.Link != "" {
			fmt.Fprintf(b, "- %s ([comment](%s))\n", path, r.Link)
		} else {
			fmt.Fprintf(b, "- %s\n", path)
		}
	}
}

func writeCoverage(b *strings.Builder, r *review.Review) {
	var skipped []review.FileCoverage
	for _, f := range r.Files {
		if !f.Reviewed {
			skipped = append(skipped, f)
		}
	}
	if len(skipped) == 0 && len(r.Errors) == 0 {
		return
	}
	fmt.Fprintf(b, "\n<details><summary>Files not reviewed (%d)</summary>\n\n", len(skipped))
	for _, f := range skipped {
		fmt.Fprintf(b, "- `%s` — %s\n", strings.ReplaceAll(f.Path, "`", ""), postSafe(postOr(f.Reason, "not reviewed")))
	}
	for _, e := range r.Errors {
		fmt.Fprintf(b, "- %s\n", postSafe(e))
	}
	b.WriteString("\n</details>\n")
}

func postOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// usagePrefix starts the summary's usage line, which changes on every run.
const usagePrefix = "<sub>Model usage: "

// sameSummary reports whether two summary bodies say the same apart from
// the model usage, so a re-run that found nothing new edits nothing.
func sameSummary(old, body string) bool {
	return withoutUsage(old) == withoutUsage(body)
}

func withoutUsage(body string) string {
	lines := strings.Split(body, "\n")
	out := lines[:0]
	for _, l := range lines {
		if !strings.HasPrefix(l, usagePrefix) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
