// Package html writes the review as one self-contained HTML page: the
// summary, every finding with its code in context (syntax-coloured when
// the page is built, by chroma), severity filters, and the files not
// reviewed with the reason. The page fetches nothing (its Content Security
// Policy allows only its own inline style and script, by hash), so it
// works offline and as a CI artifact. Everything that comes from the model
// or the repository is text to html/template, which escapes it.
package html

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"fmt"
	"html/template"
	"io"
	"slices"
	"strings"
	"time"

	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/styles"

	"github.com/ocr-ci/ocr/anchor/udiff"
	"github.com/ocr-ci/ocr/reporters"
	"github.com/ocr-ci/ocr/review"
)

// Reporter writes the review as one HTML page to W.
type Reporter struct {
	W io.Writer
	// Files is the change's parsed diff: a finding's code is shown in
	// its hunk, with the lines around it. Without it (or outside the
	// diff) the page shows the code the finding quotes.
	Files []udiff.File
	// Title heads the page (default "ocr review").
	Title string
}

var _ reporters.Reporter = (*Reporter)(nil)

//go:embed page.html.tmpl page.css page.js
var assets embed.FS

// page is parsed once per report: no package-level mutable state.
func page() (*template.Template, error) {
	return template.New("page.html.tmpl").ParseFS(assets, "page.html.tmpl")
}

// Report writes the page.
func (h *Reporter) Report(_ context.Context, r *review.Review) error {
	t, err := page()
	if err != nil {
		return fmt.Errorf("could not parse the HTML report's template: %w", err)
	}
	v, err := h.view(r)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := t.Execute(&buf, v); err != nil {
		return fmt.Errorf("could not render the HTML report: %w", err)
	}
	if _, err := h.W.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("could not write the HTML report: %w", err)
	}
	return nil
}

// view is what the template shows.
type view struct {
	Title, Status, What, When, Usage string
	Complete                         bool
	Counts                           []count
	Findings                         []finding
	Ignored                          string
	NotReviewed                      []review.FileCoverage
	Reviewed, Total, Dropped         int
	Errors                           []string
	CSS                              template.CSS
	JS                               template.JS
	CSP                              string
}

// count is one severity's number of findings, for its filter.
type count struct {
	Severity string
	N        int
}

// finding is one comment as the page shows it.
type finding struct {
	Severity, Category, Where string
	Content                   []span // text and `code` spans
	Code                      []codeLine
	Suggestion                []codeLine
	Ambiguous                 bool
}

func (h *Reporter) view(r *review.Review) (*view, error) {
	css, err := styleSheet()
	if err != nil {
		return nil, err
	}
	js, err := assets.ReadFile("page.js")
	if err != nil {
		return nil, fmt.Errorf("could not read the HTML report's script: %w", err)
	}
	ignored := reporters.IgnoredLine(r.Comments)
	act := r.Active()
	v := &view{Title: cmp.Or(h.Title, "ocr review"), Status: string(r.Status), What: what(r),
		Complete: r.Status == review.StatusComplete, Ignored: ignored, Dropped: r.Dropped,
		Total: len(r.Files), Reviewed: len(r.Files) - reporters.NotReviewed(r.Files),
		Usage: fmt.Sprintf("%d request(s), %d prompt + %d completion tokens", r.Usage.Requests, r.Usage.PromptTokens, r.Usage.CompletionTokens),
		CSS:   template.CSS(css), JS: template.JS(js)}
	if !r.Finished.IsZero() {
		v.When = r.Finished.UTC().Format(time.RFC3339)
	}
	v.CSP = "default-src 'none'; style-src " + hash(css) + "; script-src " + hash(string(js))
	for _, e := range r.Errors {
		if !review.IsCoverageError(e) {
			v.Errors = append(v.Errors, e)
		}
	}
	for _, f := range r.Files {
		if !f.Reviewed {
			v.NotReviewed = append(v.NotReviewed, f)
		}
	}
	v.Counts, v.Findings = counts(act.Comments), findings(h.Files, act.Comments)
	return v, nil
}

// counts are the findings per severity, most severe first, all severities
// listed so the filters do not move.
func counts(cs []review.Comment) []count {
	sc := reporters.SeverityCounts(cs)
	var out []count
	for _, s := range reporters.SeverityOrder() {
		out = append(out, count{Severity: string(s), N: sc[s]})
	}
	return out
}

// findings are the comments in page order (by path, then line), each with
// its code in context.
func findings(files []udiff.File, cs []review.Comment) []finding {
	byPath := make(map[string]*udiff.File, len(files))
	for i := range files {
		byPath[files[i].Path()] = &files[i]
	}
	var out []finding
	for _, c := range byLocation(cs) {
		f := finding{Severity: string(c.Severity), Category: string(c.Category), Where: where(c),
			Content: inlineCode(c.Content), Code: snippet(byPath, c), Ambiguous: len(c.Candidates) > 0}
		for _, l := range splitLines(c.Suggestion) {
			f.Suggestion = append(f.Suggestion, codeLine{Mark: "+", Spans: []span{{Text: l}}})
		}
		f.Suggestion = colour(c.Path, f.Suggestion)
		out = append(out, f)
	}
	return out
}

// where is "path:line", "path:3-5", "path (removed lines 5-7 of old)" or
// the path alone for a file-level finding.
func where(c review.Comment) string {
	switch {
	case c.FileLevel():
		return c.Path
	case c.Side == review.SideOld:
		return c.Path + " (removed " + reporters.LineSpan(c.StartLine, c.EndLine) + " of " + reporters.OldPath(c.Location) + ")"
	case c.EndLine > c.StartLine:
		return fmt.Sprintf("%s:%d-%d", c.Path, c.StartLine, c.EndLine)
	}
	return fmt.Sprintf("%s:%d", c.Path, c.StartLine)
}

// inlineCode splits text at backticks: odd spans are code ("code" class),
// as Markdown shows `x`. An unclosed backtick stays text.
func inlineCode(s string) []span {
	parts := strings.Split(s, "`")
	if len(parts)%2 == 0 {
		parts[len(parts)-2] += "`" + parts[len(parts)-1]
		parts = parts[:len(parts)-1]
	}
	var out []span
	for i, p := range parts {
		if p == "" {
			continue
		}
		class := ""
		if i%2 == 1 {
			class = "code"
		}
		out = append(out, span{Class: class, Text: p})
	}
	return out
}

// styleSheet is the page's CSS: its own rules, then chroma's classes for
// the code, written when the page is built.
func styleSheet() (string, error) {
	own, err := assets.ReadFile("page.css")
	if err != nil {
		return "", fmt.Errorf("could not read the HTML report's style: %w", err)
	}
	var b strings.Builder
	b.Write(own)
	if err := chromahtml.New(chromahtml.WithClasses(true)).WriteCSS(&b, styles.Get("github")); err != nil {
		return "", fmt.Errorf("could not write the code colours: %w", err)
	}
	return b.String(), nil
}

// what says what was reviewed: "range 1111111111..2222222222", "commit
// 2222222222", "the work tree against 1111111111".
func what(r *review.Review) string {
	switch {
	case r.Mode == "workspace":
		return strings.TrimSpace("the work tree against " + short(r.Base))
	case r.Base != "" && r.Head != "":
		return r.Mode + " " + short(r.Base) + ".." + short(r.Head)
	}
	return strings.TrimSpace(r.Mode + " " + short(r.Head))
}

// hash is the CSP source of an inline element's exact text.
func hash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

func short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}

// byLocation sorts a copy of cs by path, then start line.
func byLocation(cs []review.Comment) []review.Comment {
	out := slices.Clone(cs)
	slices.SortStableFunc(out, func(a, b review.Comment) int {
		return cmp.Or(cmp.Compare(a.Path, b.Path), cmp.Compare(a.StartLine, b.StartLine))
	})
	return out
}
