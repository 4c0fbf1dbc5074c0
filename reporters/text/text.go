package text

import (
	"context"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/ocr-ci/ocr/reporters"
	"github.com/ocr-ci/ocr/review"
)

// Reporter writes the review for a terminal, grouped by file. Colour is used
// only when Color is set: the runner sets it when the writer is a TTY and
// NO_COLOR is unset. Model text is sanitised (no terminal escapes, no bidi
// overrides) and every line starts with a character ocr wrote, so text
// printed into a CI log can never start a workflow command.
type Reporter struct {
	W     io.Writer
	Color bool
}

var _ reporters.Reporter = (*Reporter)(nil)

const (
	ansiReset = "\x1b[0m"
	ansiBold  = "\x1b[1m"
	ansiDim   = "\x1b[2m"
)

var severityColors = map[review.Severity]string{
	review.SeverityCritical: "\x1b[1;31m", review.SeverityHigh: "\x1b[31m",
	review.SeverityMedium: "\x1b[33m", review.SeverityLow: "\x1b[34m",
}

// Report writes the text report.
func (t *Reporter) Report(_ context.Context, r *review.Review) error {
	var b strings.Builder
	t.header(&b, r)
	for _, group := range groupByFile(r.Comments) {
		fmt.Fprintf(&b, "\n%s\n", t.paint(ansiBold, "▸ "+termText(group[0].Path)))
		for _, c := range group {
			t.comment(&b, c)
		}
	}
	t.coverage(&b, r)
	if _, err := io.WriteString(t.W, b.String()); err != nil {
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

func (t *Reporter) header(b *strings.Builder, r *review.Review) {
	counts := "no findings"
	if n := len(r.Comments); n > 0 {
		var parts []string
		sc := reporters.SeverityCounts(r.Comments)
		for _, s := range reporters.SeverityOrder() {
			if sc[s] > 0 {
				parts = append(parts, t.paint(severityColors[s], fmt.Sprintf("%d %s", sc[s], s)))
			}
		}
		counts = fmt.Sprintf("%d finding(s): %s", n, strings.Join(parts, ", "))
	}
	fmt.Fprintf(b, "ocr review %s — %s; %d of %d file(s) reviewed\n", termText(string(r.Status)), counts,
		len(r.Files)-reporters.NotReviewed(r.Files), len(r.Files))
}

// comment writes "  L10-12  high  security" then the text behind a gutter.
func (t *Reporter) comment(b *strings.Builder, c review.Comment) {
	where := "file"
	switch {
	case c.FileLevel():
	case c.Side == review.SideOld:
		where = "removed L" + reporters.Span(c.StartLine, c.EndLine) + " of " + termText(reporters.OldPath(c.Location))
	default:
		where = "L" + reporters.Span(c.StartLine, c.EndLine)
	}
	fmt.Fprintf(b, "  %s  %s  %s\n", t.paint(ansiDim, where),
		t.paint(severityColors[c.Severity], termText(string(c.Severity))), termText(string(c.Category)))
	gutterLines(b, "  │ ", c.Content)
	if c.Suggestion != "" {
		b.WriteString("  │ suggested change:\n")
		gutterLines(b, "  │ + ", c.Suggestion)
	}
}

// gutterLines writes each line of s sanitised behind prefix.
func gutterLines(b *strings.Builder, prefix, s string) {
	for _, line := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		b.WriteString(prefix + termText(strings.TrimRight(line, "\r")) + "\n")
	}
}

func (t *Reporter) coverage(b *strings.Builder, r *review.Review) {
	if reporters.NotReviewed(r.Files) > 0 {
		b.WriteString("\nnot reviewed:\n")
		for _, f := range r.Files {
			if !f.Reviewed {
				fmt.Fprintf(b, "  ✗ %s (%s)\n", termText(f.Path), termText(reporters.SkipReason(f)))
			}
		}
	}
	for _, e := range r.Errors {
		fmt.Fprintf(b, "error: %s\n", termText(e))
	}
	u := r.Usage
	fmt.Fprintf(b, "usage: %d request(s), %d prompt + %d completion tokens\n", u.Requests, u.PromptTokens, u.CompletionTokens)
	writeCost(b, r.Cost)
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
	return b.String()
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
