package posting

import (
	"cmp"
	"fmt"
	"html"
	"strings"

	"github.com/ocr-ci/ocr/reporters"
	"github.com/ocr-ci/ocr/review"
)

// maxSummary keeps the sticky summary under GitHub's 65,536-character limit.
const maxSummary = 65000

// ResolvedItem is a finding an earlier run posted that this run no longer
// reports.
type ResolvedItem struct {
	Path string
	Link string // URL of the comment, when the platform gives one
	// Thread says what became of the finding's thread ("thread resolved",
	// or why it stays open); "" says nothing.
	Thread string
}

// StickyInput is everything the sticky summary shows.
type StickyInput struct {
	Review     *review.Review
	Placements []Placement
	Resolved   []ResolvedItem
	// State is recorded in hidden lines at the end; nil records none.
	State *State
	Notes []string // problems while posting, shown to people
}

// restReserve is how much of the visible summary the findings line may
// not take: past it, carrying findings forward matters more than showing
// details the SARIF and JSON reports hold anyway.
const restReserve = 16000

// StickySummary renders the sticky summary comment. It holds no times or
// durations, so an unchanged review renders byte-identical and a re-run
// does not edit it. Suppressed findings are counted on one line of their
// own, not in the table.
func StickySummary(in StickyInput) string {
	ignored := ignoredNote(in.Review.Comments)
	in.Review = in.Review.Active()
	var b strings.Builder
	b.WriteString(summaryMarker + "\n")
	writeSummaryHead(&b, in)
	b.WriteString(ignored)
	rest := summaryRest(in)
	tail, cut := stateTail(in.State, maxSummary-b.Len()-min(len(rest), restReserve)-500)
	if cut > 0 {
		rest = fmt.Sprintf("\n> [!NOTE]\n> %d finding(s), the least severe, could not be recorded for incremental reviews "+
			"(the summary is limited to 65,536 characters): the next incremental review will not carry them forward; "+
			"run with `--full` to review the whole change again.\n", cut) + rest
	}
	if b.Len()+len(rest)+len(tail) > maxSummary {
		rest = postCut(rest, maxSummary-b.Len()-len(tail)-200) +
			"\n\nThe summary was cut to fit the 65,536-character limit; the SARIF and JSON reports hold every finding.\n"
	}
	b.WriteString(rest)
	b.WriteString(tail)
	return b.String()
}

// stateTail renders the hidden state lines (findings, then state last),
// the findings line within budget; cut is how many findings did not fit.
func stateTail(s *State, budget int) (tail string, cut int) {
	if s == nil {
		return "", 0
	}
	state := "\n" + stateMarker(*s)
	if s.Findings == nil {
		return state, 0
	}
	line, cut := findingsMarker(s.Findings, budget-len(state)-1)
	if line == "" {
		return state, cut
	}
	return "\n" + line + state, cut
}

// RecordedState is the State a summary records after review r of head
// with configuration config: r's own when it is complete, else the last
// complete review's, read from the current summary (nil when there was
// none), so a failed or partial review never becomes the baseline of an
// incremental review.
func RecordedState(r *review.Review, head, config, oldSummary string) *State {
	if r.Status == review.StatusComplete {
		fs := r.Comments
		if fs == nil {
			fs = []review.Comment{}
		}
		return &State{Head: head, Config: config, Findings: fs}
	}
	if prev, ok := ReadState(oldSummary); ok {
		return &prev
	}
	return nil
}

// Notes adds to notes what the summary must warn about: each
// posting error, then, when r is incomplete, that it is not a baseline.
func Notes(notes []string, r *review.Review, errs ...error) []string {
	for _, err := range errs {
		if err != nil {
			notes = append(notes, "Some comments could not be posted: "+err.Error())
		}
	}
	if r.Status != review.StatusComplete {
		notes = append(notes, fmt.Sprintf("This review is %s: the next run reviews again everything since the "+
			"last complete review.", cmp.Or(string(r.Status), "unknown")))
	}
	return notes
}

// GoneFindings lists, in the order of earlier, the fingerprints of ocr's
// earlier findings that r no longer reports. Only a complete review of the
// whole change can tell: an incremental, failed or partial one did not
// look everywhere, and so lists none.
func GoneFindings(r *review.Review, incremental bool, earlier []string) []string {
	if incremental || r.Status != review.StatusComplete {
		return nil
	}
	now := make(map[string]bool, len(r.Comments))
	for _, c := range r.Comments {
		now[fingerprintOf(c)] = true
	}
	var gone []string
	for _, fp := range earlier {
		if !now[fp] {
			gone = append(gone, fp)
		}
	}
	return gone
}

func writeSummaryHead(b *strings.Builder, in StickyInput) {
	r := in.Review
	fmt.Fprintf(b, "## %s review\n\n", cmp.Or(r.Tool, "ocr"))
	reviewed := len(r.Files) - reporters.NotReviewed(r.Files)
	fmt.Fprintf(b, "**Status:** %s · %d of %d files reviewed", cmp.Or(string(r.Status), "unknown"), reviewed, len(r.Files))
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
	kinds := map[PlaceKind]int{}
	for _, p := range in.Placements {
		kinds[p.Kind]++
	}
	// Counted the same whether posted by this run or an earlier one, so a
	// re-run renders the same summary.
	fmt.Fprintf(b, "\n%d posted as review comments, %d listed in this summary.\n",
		kinds[PlaceInline]+kinds[PlaceFile]+kinds[placePosted], kinds[PlaceSummary])
}

func summaryRest(in StickyInput) string {
	var b strings.Builder
	for _, n := range in.Notes {
		fmt.Fprintf(&b, "\n> [!WARNING]\n> %s\n", postSafeInline(n))
	}
	writeUnplaced(&b, in.Placements)
	writeResolved(&b, in.Resolved)
	writeCoverage(&b, in.Review)
	u := in.Review.Usage
	cost := ""
	if c := in.Review.Cost; c != nil {
		cost = ", cost " + c.String()
	}
	fmt.Fprintf(&b, "\n"+usagePrefix+"%d requests, %d prompt + %d completion tokens%s.</sub>\n",
		u.Requests, u.PromptTokens, u.CompletionTokens, cost)
	return b.String()
}

func writeUnplaced(b *strings.Builder, ps []Placement) {
	var un []Placement
	for _, p := range ps {
		if p.Kind == PlaceSummary {
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
			html.EscapeString(string(p.Category)), html.EscapeString(strings.ReplaceAll(LocationText(p.Comment), "`", "")))
		b.WriteString(postSafeCut(strings.TrimSpace(p.Content), 4000))
		b.WriteString("\n")
		if p.Suggestion != "" {
			q := p
			q.Suggest = false
			b.WriteString("\n" + postCut(suggestionBlock(q, FlavorGitHub), 4000))
		}
		if p.Note != "" {
			fmt.Fprintf(b, "\n<sub>%s</sub>\n", postSafeInline(p.Note))
		}
		b.WriteString("\n</details>\n")
	}
}

func writeResolved(b *strings.Builder, rs []ResolvedItem) {
	if len(rs) == 0 {
		return
	}
	fmt.Fprintf(b, "\n### Resolved since the last run (%d)\n\n", len(rs))
	for _, r := range rs {
		line := "- " + postCode(r.Path)
		if r.Link != "" {
			line += fmt.Sprintf(" ([comment](%s))", r.Link)
		}
		if r.Thread != "" {
			line += " — " + postSafe(r.Thread)
		}
		b.WriteString(line + "\n")
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
		fmt.Fprintf(b, "- %s — %s\n", postCode(f.Path), postSafeInline(string(cmp.Or(f.Reason, "not reviewed"))))
	}
	for _, e := range r.Errors {
		fmt.Fprintf(b, "- %s\n", postSafeInline(e))
	}
	b.WriteString("\n</details>\n")
}

// usagePrefix starts the summary's usage line, which changes on every run.
const usagePrefix = "<sub>Model usage: "

// SameSummary reports whether two summary bodies say the same apart from
// the model usage, so a re-run that found nothing new edits nothing.
func SameSummary(old, body string) bool {
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
