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
	// Links are the hosts whose links model text keeps.
	Links Links
}

// restReserve is how much of the visible summary the findings line may
// not take: past it, carrying findings forward matters more than showing
// details the SARIF and JSON reports hold anyway.
const restReserve = 16000

// StickySummary renders the sticky summary comment. It holds no times or
// durations, so an unchanged review renders byte-identical and a re-run
// does not edit it. Suppressed findings are counted on one line of their
// own, not in the table. What does not fit the size limit is left out
// whole (see fitSections): a cut never leaves a fence or a <details> open.
func StickySummary(in StickyInput) string {
	ignored := ignoredNote(in.Review.Comments)
	in.Review = in.Review.Active()
	var b strings.Builder
	b.WriteString(summaryMarker + "\n")
	writeSummaryHead(&b, in)
	b.WriteString(ignored)
	secs, usage := summarySections(in), usageLine(in.Review)
	tail, cut := stateTail(in.State, maxSummary-b.Len()-len(usage)-min(sectionsLen(secs), restReserve)-500)
	if cut > 0 {
		fmt.Fprintf(&b, "\n> [!NOTE]\n> %d finding(s), the least severe, "+notRecorded+" "+
			"(the summary is limited to 65,536 characters): the next incremental review will not carry them forward; "+
			"run with `--full` to review the whole change again.\n", cut)
	}
	shown, left := fitSections(secs, maxSummary-b.Len()-len(usage)-len(tail)-len(summaryCutNote)-20)
	b.WriteString(shown)
	if left > 0 {
		fmt.Fprintf(&b, summaryCutNote, left)
	}
	b.WriteString(usage)
	b.WriteString(tail)
	return b.String()
}

// notRecorded is how the summary says that some findings did not fit its
// findings line; ReadState looks for it (State.Cut).
const notRecorded = "could not be recorded for incremental reviews"

// summaryCutNote says how many items of the summary did not fit.
const summaryCutNote = "\n%d more item(s) did not fit the 65,536-character limit of the summary; " +
	"the SARIF and JSON reports hold every finding.\n"

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
	if n := kinds[PlaceOverBudget]; n > 0 {
		fmt.Fprintf(b, "\n%d more in the SARIF report: over the budget of inline comments per push (`--max-inline`), listed below.\n", n)
	}
}

// summarySections are the summary's parts below its head, most important
// first: notes, findings not placed in the diff, resolved findings, those
// over the inline budget, those below the floor, files not reviewed.
func summarySections(in StickyInput) []section {
	var secs []section
	for _, n := range in.Notes {
		secs = append(secs, section{items: []string{fmt.Sprintf("\n> [!WARNING]\n> %s\n", postSafeInline(n, in.Links))}})
	}
	return append(secs, unplacedSection(in.Placements, in.Links), resolvedSection(in.Resolved, in.Links),
		overBudgetSection(in.Placements, in.Links), belowFloorSection(in.Placements, in.Links), coverageSection(in.Review, in.Links))
}

// usageLine is the model usage, the summary's last visible line.
func usageLine(r *review.Review) string {
	u := r.Usage
	cost := ""
	if c := r.Cost; c != nil {
		cost = ", cost " + c.String()
	}
	return fmt.Sprintf("\n"+usagePrefix+"%d requests, %d prompt + %d completion tokens%s%s.</sub>\n",
		u.Requests, u.PromptTokens, u.CompletionTokens, u.Breakdown(), cost)
}

func unplacedSection(ps []Placement, links Links) section {
	un := placementsOf(ps, PlaceSummary)
	if len(un) == 0 {
		return section{}
	}
	sec := section{head: fmt.Sprintf("\n### Findings not placed in the diff (%d)\n\n", len(un))}
	for _, p := range un {
		sec.items = append(sec.items, unplacedItem(p, links))
	}
	return sec
}

// unplacedItem is one finding in a <details> block of its own.
func unplacedItem(p Placement, links Links) string {
	var b strings.Builder
	// <summary> is raw HTML: Markdown does not render there, so plain
	// escaped text.
	fmt.Fprintf(&b, "<details><summary>%s · %s · %s</summary>\n\n", postSeverity(p.Severity),
		html.EscapeString(string(p.Category)), html.EscapeString(strings.ReplaceAll(LocationText(p.Comment), "`", "")))
	b.WriteString(postSafeCut(strings.TrimSpace(p.Content), 4000, links))
	b.WriteString("\n")
	if p.Suggestion != "" {
		q := p
		q.Suggest = false
		b.WriteString("\n" + suggestionBlock(q, FlavorGitHub, 4000))
	}
	if p.Note != "" {
		fmt.Fprintf(&b, "\n<sub>%s</sub>\n", postSafeInline(p.Note, links))
	}
	b.WriteString("\n</details>\n")
	return b.String()
}

func resolvedSection(rs []ResolvedItem, links Links) section {
	if len(rs) == 0 {
		return section{}
	}
	sec := section{head: fmt.Sprintf("\n### Resolved since the last run (%d)\n\n", len(rs))}
	for _, r := range rs {
		line := "- " + postCode(r.Path)
		if r.Link != "" {
			line += fmt.Sprintf(" ([comment](%s))", r.Link)
		}
		if r.Thread != "" {
			line += " — " + postSafeInline(r.Thread, links)
		}
		sec.items = append(sec.items, line+"\n")
	}
	return sec
}

func coverageSection(r *review.Review, links Links) section {
	var skipped []review.FileCoverage
	for _, f := range r.Files {
		if !f.Reviewed {
			skipped = append(skipped, f)
		}
	}
	if len(skipped) == 0 && len(r.Errors) == 0 {
		return section{}
	}
	sec := section{head: fmt.Sprintf("\n<details><summary>Files not reviewed (%d)</summary>\n\n", len(skipped)),
		foot: "\n</details>\n"}
	for _, f := range skipped {
		sec.items = append(sec.items, fmt.Sprintf("- %s — %s\n", postCode(f.Path),
			postSafeInline(string(cmp.Or(f.Reason, "not reviewed")), links)))
	}
	for _, e := range r.Errors {
		sec.items = append(sec.items, fmt.Sprintf("- %s\n", postSafeInline(e, links)))
	}
	return sec
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
