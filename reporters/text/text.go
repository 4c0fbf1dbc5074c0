// Package text writes the review for a terminal, in the shape compilers and
// linters print (go vet, golangci-lint): one `path:line:` location per
// finding that editors and terminals make clickable, then the summary.
package text

import (
	"cmp"

	"github.com/ocr-ci/ocr/internal/infra/logtext"

	"context"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/ocr-ci/ocr/reporters"
	"github.com/ocr-ci/ocr/review"
)

// Reporter writes the review for a terminal, sorted by file and line.
// Colour is used only when Color is set: the runner sets it when the writer
// is a TTY and NO_COLOR is unset. Model text is sanitised (no terminal
// escapes, no bidi overrides) and every line starts with a character ocr
// wrote, so text printed into a CI log can never start a workflow command.
type Reporter struct {
	W     io.Writer
	Color bool
	// Verbose lists every file not reviewed; otherwise one line per reason.
	Verbose bool
}

var _ reporters.Reporter = (*Reporter)(nil)

const (
	ansiReset = "\x1b[0m"
	ansiBold  = "\x1b[1m"
	ansiDim   = "\x1b[2m"
	ansiRed   = "\x1b[31m"
	ansiGreen = "\x1b[32m"
)

var severityColors = map[review.Severity]string{
	review.SeverityCritical: "\x1b[1;31m", review.SeverityHigh: "\x1b[31m",
	review.SeverityMedium: "\x1b[33m", review.SeverityLow: "\x1b[34m",
}

var statusColors = map[review.Status]string{
	review.StatusComplete: ansiGreen, review.StatusPartial: "\x1b[33m", review.StatusFailed: ansiRed,
}

// shownPaths is how many paths a reason's line names before "and N more".
const shownPaths = 3

// Report writes the text report.
func (t *Reporter) Report(_ context.Context, r *review.Review) error {
	var b strings.Builder
	ignored := reporters.IgnoredLine(r.Comments)
	r = r.Active()
	if r.Status != review.StatusComplete {
		// Said first, once: the findings below cover only what was reviewed.
		what := "some files could not be reviewed"
		if r.Status == review.StatusFailed {
			what = "no file could be reviewed"
		}
		fmt.Fprintf(&b, "review %s: %s (why: below)\n", t.paint(statusColors[r.Status], termText(string(r.Status))), what)
	}
	for _, group := range groupByFile(r.Comments) {
		for _, c := range group {
			t.comment(&b, c)
			b.WriteString("\n")
		}
	}
	if ignored != "" {
		b.WriteString(termText(ignored) + ": not counted by --fail-on\n")
	}
	t.summary(&b, r)
	out := b.String()
	if !t.Color {
		out = logtext.Inert(out)
	}
	if _, err := io.WriteString(t.W, out); err != nil {
		return fmt.Errorf("could not write the text report: %w", err)
	}
	return nil
}

func (t *Reporter) paint(code, s string) string {
	if !t.Color || code == "" {
		return s
	}
	return code + s + ansiReset
}

// comment writes "path:line: severity category (lines a-b) · found by 2/3
// passes" (the votes only for a review of several passes), the message
// behind a gutter, then the quoted code, or the suggestion as a diff.
func (t *Reporter) comment(b *strings.Builder, c review.Comment) {
	loc, extra := termText(c.Path), ""
	switch {
	case c.FileLevel():
	case c.Side == review.SideOld:
		extra = " (removed " + reporters.LineSpan(c.StartLine, c.EndLine) + " of " + termText(reporters.OldPath(c.Location)) + ")"
	default:
		loc += fmt.Sprintf(":%d", c.StartLine)
		if c.EndLine > c.StartLine {
			extra = " (" + reporters.LineSpan(c.StartLine, c.EndLine) + ")"
		}
	}
	if c.Votes != nil {
		extra += " · found by " + c.Votes.String() + " passes"
	}
	fmt.Fprintf(b, "%s: %s %s%s\n", t.paint(ansiBold, loc), t.paint(severityColors[c.Severity], termText(string(c.Severity))),
		t.paint(ansiDim, termText(string(c.Category))), extra)
	gutterLines(b, "  │ ", c.Content)
	switch {
	case c.Suggestion != "":
		t.codeLines(b, "-", ansiRed, c.ExistingCode)
		t.codeLines(b, "+", ansiGreen, c.Suggestion)
	case strings.TrimSpace(c.ExistingCode) != "":
		t.codeLines(b, "|", ansiDim, c.ExistingCode)
	}
}

// codeLines writes each line of code as "    MARK line", sanitised.
func (t *Reporter) codeLines(b *strings.Builder, mark, color, code string) {
	if strings.TrimSpace(code) == "" {
		return
	}
	for _, line := range strings.Split(strings.TrimRight(code, "\n"), "\n") {
		b.WriteString("    " + t.paint(color, strings.TrimRight(mark+" "+termText(strings.TrimRight(line, "\r")), " ")) + "\n")
	}
}

// gutterLines writes each line of s sanitised behind prefix.
func gutterLines(b *strings.Builder, prefix, s string) {
	for _, line := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		b.WriteString(strings.TrimRight(prefix+termText(strings.TrimRight(line, "\r")), " ") + "\n")
	}
}

// summary writes the counts, the caps, the files not reviewed, the errors
// and the last line: status, elapsed time, requests, tokens (and cost).
func (t *Reporter) summary(b *strings.Builder, r *review.Review) {
	b.WriteString(t.counts(r.Comments, r.Status == review.StatusComplete) + "\n")
	if r.Dropped > 0 {
		fmt.Fprintf(b, "%d more finding(s) dropped by the caps (--max-comments per run, a fifth of it per file): raise --max-comments to see them\n", r.Dropped)
	}
	if t.Verbose && r.Filtered > 0 {
		fmt.Fprintf(b, "%d finding(s) removed as duplicates or by the reflection filter\n", r.Filtered)
	}
	t.coverage(b, r)
	for _, e := range r.Errors {
		if !review.IsCoverageError(e) { // the coverage lines above say it
			fmt.Fprintf(b, "error: %s\n", termText(e))
		}
	}
	t.passLines(b, r)
	u := r.Usage
	line := "review " + t.paint(statusColors[r.Status], termText(string(r.Status)))
	if r.Status != review.StatusComplete {
		line = "ran" // the first line said how it ended
	}
	if !r.Started.IsZero() && r.Finished.After(r.Started) {
		line += " in " + elapsed(r.Finished.Sub(r.Started))
	}
	line += fmt.Sprintf(": %d request(s), %s prompt + %s completion tokens%s", u.Requests, review.Thousands(u.PromptTokens), review.Thousands(u.CompletionTokens), u.Breakdown())
	if r.Cost != nil {
		line += ", " + termText(costText(r.Cost))
	}
	b.WriteString(line + "\n")
}

// counts is "6 findings: 1 critical, 1 high, 2 medium, 2 low".
func (t *Reporter) counts(cs []review.Comment, complete bool) string {
	switch {
	case len(cs) == 0 && !complete:
		return "no findings in the files reviewed"
	case len(cs) == 0:
		return "no findings"
	}
	var parts []string
	sc := reporters.SeverityCounts(cs)
	for _, s := range reporters.SeverityOrder() {
		if sc[s] > 0 {
			parts = append(parts, t.paint(severityColors[s], fmt.Sprintf("%d %s", sc[s], s)))
		}
	}
	return fmt.Sprintf("%d finding(s): %s", len(cs), strings.Join(parts, ", "))
}

// coverage says how many files were reviewed and, for the others, one line
// per reason (every file with Verbose).
func (t *Reporter) coverage(b *strings.Builder, r *review.Review) {
	n := reporters.NotReviewed(r.Files)
	fmt.Fprintf(b, "%d of %d file(s) reviewed", len(r.Files)-n, len(r.Files))
	if n == 0 {
		b.WriteString("\n")
		return
	}
	b.WriteString("; not reviewed:\n")
	groups := byReason(r.Files)
	width := 0
	for _, g := range groups {
		width = max(width, len(g.reason))
	}
	for _, g := range groups {
		if t.Verbose {
			for _, f := range g.files {
				fmt.Fprintf(b, "  %-*s  %s%s\n", width, g.reason, termText(f.Path), detail(f.Detail))
			}
			continue
		}
		fmt.Fprintf(b, "  %-*s  %3d  %s\n", width, g.reason, len(g.files), g.paths())
	}
}

// reasonGroup is the files not reviewed for one reason, in order.
type reasonGroup struct {
	reason string
	files  []review.FileCoverage
}

// paths names up to shownPaths files, then how many more; the detail when
// every file shares it.
func (g reasonGroup) paths() string {
	var names []string
	for i, f := range g.files {
		if i == shownPaths {
			names = append(names, fmt.Sprintf("and %d more (-v lists them)", len(g.files)-shownPaths))
			break
		}
		names = append(names, termText(f.Path))
	}
	s := strings.Join(names, ", ")
	d := ""
	for _, f := range g.files {
		switch {
		case f.Detail == "" || f.Detail == d:
		case d == "":
			d = f.Detail
		default:
			return s // the details differ: -v shows each
		}
	}
	return s + detail(d)
}

func detail(d string) string {
	if d == "" {
		return ""
	}
	return " (" + termText(d) + ")"
}

// byReason groups the files not reviewed by reason, in order of first
// appearance.
func byReason(files []review.FileCoverage) []reasonGroup {
	var out []reasonGroup
	index := map[string]int{}
	for _, f := range files {
		if f.Reviewed {
			continue
		}
		reason := termText(string(cmp.Or(f.Reason, "unknown")))
		i, ok := index[reason]
		if !ok {
			i = len(out)
			index[reason] = i
			out = append(out, reasonGroup{reason: reason})
		}
		out[i].files = append(out[i].files, f)
	}
	return out
}

// elapsed rounds a run's duration for people: 850ms, 12.4s, 3m12s.
func elapsed(d time.Duration) string {
	switch {
	case d < time.Second:
		return d.Round(time.Millisecond).String()
	case d < time.Minute:
		return d.Round(100 * time.Millisecond).String()
	}
	return d.Round(time.Second).String()
}

// groupByFile groups comments by path (sorted), each group by line.
func groupByFile(cs []review.Comment) [][]review.Comment {
	byPath := map[string][]review.Comment{}
	for _, c := range cs {
		byPath[c.Path] = append(byPath[c.Path], c)
	}
	paths := make([]string, 0, len(byPath))
	for p := range byPath {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	groups := make([][]review.Comment, 0, len(paths))
	for _, p := range paths {
		g := byPath[p]
		sort.SliceStable(g, func(i, j int) bool { return g[i].StartLine < g[j].StartLine })
		groups = append(groups, g)
	}
	return groups
}

// termText makes untrusted text safe for a terminal: tabs become spaces,
// other control and bidi-formatting characters are shown as \xNN / \u{...}.
func termText(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\t':
			b.WriteString("    ")
		case r == '\n' || r == '\r':
			b.WriteByte(' ')
		case reporters.IsUnsafeControl(r) && r < 0x100:
			fmt.Fprintf(&b, "\\x%02x", r)
		case reporters.IsUnsafeControl(r):
			fmt.Fprintf(&b, "\\u{%04x}", r)
		default:
			b.WriteRune(r)
		}
	}
	return logtext.Inline(b.String())
}

// UseColor reports whether text output to w should be coloured: w is a
// terminal (a character device), NO_COLOR is unset or empty
// (https://no-color.org) and TERM is not "dumb".
func UseColor(w io.Writer, getenv func(string) string) bool {
	if getenv("NO_COLOR") != "" || getenv("TERM") == "dumb" {
		return false
	}
	f, ok := w.(interface{ Stat() (os.FileInfo, error) })
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}
