package html_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	xhtml "golang.org/x/net/html"

	"github.com/ocr-ci/ocr/anchor/udiff"
	"github.com/ocr-ci/ocr/reporters/html"
	"github.com/ocr-ci/ocr/reporters/internal/reportertest"
	"github.com/ocr-ci/ocr/review"
)

// page renders r with the files of reportertest.PostDiff(n) and parses it
// with the HTML5 parser browsers follow.
func page(t *testing.T, r *review.Review, n int) (*xhtml.Node, string) {
	t.Helper()
	files, err := udiff.ParseString(reportertest.PostDiff(n))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := (&html.Reporter{W: &buf, Files: files}).Report(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	if dir := os.Getenv("OCR_TEST_ARTIFACTS"); dir != "" { // to look at it in a browser
		_ = os.WriteFile(filepath.Join(dir, "report.html"), buf.Bytes(), 0o600)
	}
	doc, err := xhtml.Parse(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	return doc, buf.String()
}

// all returns the elements for which keep is true, in document order.
func all(n *xhtml.Node, keep func(*xhtml.Node) bool) []*xhtml.Node {
	var out []*xhtml.Node
	for d := range n.Descendants() {
		if d.Type == xhtml.ElementNode && keep(d) {
			out = append(out, d)
		}
	}
	return out
}

func tag(name string) func(*xhtml.Node) bool {
	return func(n *xhtml.Node) bool { return n.Data == name }
}

func attr(n *xhtml.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

func hasClass(n *xhtml.Node, class string) bool {
	v, _ := attr(n, "class")
	return slices.Contains(strings.Fields(v), class)
}

// text is the text content of n, as a browser shows it.
func text(n *xhtml.Node) string {
	var b strings.Builder
	for d := range n.Descendants() {
		if d.Type == xhtml.TextNode {
			b.WriteString(d.Data)
		}
	}
	return b.String()
}

const hostile = "<script>alert(1)</script> <img src=https://evil.example/x.png onerror=alert(2)> " +
	"</pre></article><a href=\"https://evil.example\">click</a> `<b>code</b>` &amp; \"quotes\""

// TestHostileTextStaysText: model text full of markup is shown as the
// text it is; the page has one script (its own), loads nothing from
// anywhere, links only within itself, has no event handler attribute, and
// its Content Security Policy allows exactly its own inline style and
// script.
func TestHostileTextStaysText(t *testing.T) {
	t.Parallel()
	r := reportertest.HostileReview()
	r.Comments[0].Content = hostile
	r.Comments[1].Suggestion = hostile
	r.Comments[2].Path = "docs/\"><script>alert(3)</script>.md"
	r.Files = append(r.Files, review.FileCoverage{Path: "x\"><img src=y>.go", Reason: review.ReasonProvider, Detail: hostile})
	r.Status = review.StatusPartial
	doc, raw := page(t, r, 2)

	scripts := all(doc, tag("script"))
	if len(scripts) != 1 {
		t.Fatalf("%d script elements, want only the page's own", len(scripts))
	}
	for _, n := range all(doc, func(*xhtml.Node) bool { return true }) {
		for _, a := range n.Attr {
			switch {
			case strings.HasPrefix(a.Key, "on"):
				t.Errorf("<%s> has an event handler %s=%q", n.Data, a.Key, a.Val)
			case a.Key == "src" || a.Key == "srcset" || a.Key == "action" || a.Key == "formaction":
				t.Errorf("<%s %s=%q> would fetch", n.Data, a.Key, a.Val)
			case a.Key == "href" && !strings.HasPrefix(a.Val, "#"):
				t.Errorf("<%s href=%q> leaves the page", n.Data, a.Val)
			}
		}
		if n.Data == "img" || n.Data == "link" || n.Data == "iframe" || n.Data == "object" || n.Data == "embed" {
			t.Errorf("a <%s> element", n.Data)
		}
	}
	shown := false
	for _, c := range all(doc, func(n *xhtml.Node) bool { return hasClass(n, "content") }) {
		shown = shown || text(c) == strings.ReplaceAll(hostile, "`", "")
	}
	if !shown || !strings.Contains(text(doc), hostile) {
		t.Errorf("the hostile text is not shown as written (in the finding, the suggestion, the detail)")
	}
	if !strings.Contains(text(doc), "docs/\"><script>alert(3)</script>.md") || !strings.Contains(text(doc), "x\"><img src=y>.go") {
		t.Errorf("hostile paths are not shown as text")
	}
	checkCSP(t, doc, raw)
}

// checkCSP: the policy's hashes are those of the inline style and script
// as a browser parses them; nothing else is allowed.
func checkCSP(t *testing.T, doc *xhtml.Node, raw string) {
	t.Helper()
	metas := all(doc, func(n *xhtml.Node) bool {
		v, _ := attr(n, "http-equiv")
		return n.Data == "meta" && strings.EqualFold(v, "Content-Security-Policy")
	})
	if len(metas) != 1 {
		t.Fatalf("%d CSP meta elements, want 1", len(metas))
	}
	csp, _ := attr(metas[0], "content")
	sum := func(n *xhtml.Node) string {
		s := sha256.Sum256([]byte(text(n)))
		return "'sha256-" + base64.StdEncoding.EncodeToString(s[:]) + "'"
	}
	want := "default-src 'none'; style-src " + sum(all(doc, tag("style"))[0]) + "; script-src " + sum(all(doc, tag("script"))[0])
	if csp != want {
		t.Errorf("CSP %q, want %q", csp, want)
	}
	if strings.Contains(raw, "@import") || strings.Contains(raw, "url(") {
		t.Errorf("the style sheet fetches something")
	}
}

// TestFindingsInContext: each finding is one article with its severity
// (what the filters toggle), its code is the lines of its hunk around it
// with their numbers, its own lines marked, coloured by token class; a
// deleted-side finding shows the old lines; one outside the diff shows the
// code it quotes.
func TestFindingsInContext(t *testing.T) {
	t.Parallel()
	r := reportertest.PostReview([]review.Comment{
		reportertest.PostFinding(reportertest.KindRangeSuggest, 0, review.SeverityCritical),
		reportertest.PostFinding(reportertest.KindDeleted, 0, review.SeverityHigh),
		reportertest.PostFinding(reportertest.KindOtherFile, 0, review.SeverityLow),
	})
	doc, _ := page(t, r, 1)
	articles := all(doc, tag("article"))
	if len(articles) != 3 {
		t.Fatalf("%d findings shown, want 3", len(articles))
	}
	var sevs []string
	for _, a := range articles {
		v, _ := attr(a, "data-severity")
		sevs = append(sevs, v)
	}
	// Page order is by path: docs/elsewhere.md, then pkg/f0.go's lines.
	if strings.Join(sevs, ",") != "low,high,critical" && strings.Join(sevs, ",") != "low,critical,high" {
		t.Errorf("severities %v", sevs)
	}
	lines := func(a *xhtml.Node) (nums, targets []string) {
		for _, l := range all(a, func(n *xhtml.Node) bool { return hasClass(n, "line") }) {
			ln := all(l, func(n *xhtml.Node) bool { return hasClass(n, "ln") })[0]
			nums = append(nums, text(ln))
			if hasClass(l, "target") {
				targets = append(targets, text(ln))
			}
		}
		return nums, targets
	}
	for _, a := range articles {
		nums, targets := lines(a)
		sev, _ := attr(a, "data-severity")
		switch sev {
		case "critical": // new 3–4 of hunk new 1–7 with the deleted line where it was, then the suggestion
			if strings.Join(nums[:8], ",") != "1,2,,3,4,5,6,7" || strings.Join(targets, ",") != "3,4" || !strings.Contains(text(a), "-func old() {}") {
				t.Errorf("critical: lines %v, marked %v", nums, targets)
			}
			coloured := all(a, func(n *xhtml.Node) bool { return n.Data == "span" && hasClass(n, "kd") })
			if len(coloured) == 0 || text(coloured[0]) != "func" {
				t.Errorf("critical: `func` is not coloured as a declaration keyword")
			}
		case "high": // old line 3, the deleted `func old() {}`
			if !slices.Contains(targets, "3") || !strings.Contains(text(a), "func old() {}") {
				t.Errorf("high: lines %v, marked %v:\n%s", nums, targets, text(a))
			}
		case "low": // outside the diff: the quote, at its line
			if strings.Join(targets, ",") != "1" || !strings.Contains(text(a), "code 6 0") {
				t.Errorf("low: lines %v, marked %v", nums, targets)
			}
		}
	}
	boxes := all(doc, func(n *xhtml.Node) bool { v, _ := attr(n, "type"); return n.Data == "input" && v == "checkbox" })
	if len(boxes) != 4 {
		t.Errorf("%d severity filters, want 4", len(boxes))
	}
}

// TestFailedReviewSaysWhy: a review that did not complete says so at the
// top, lists each file not reviewed with its reason and detail once, and
// keeps the errors that are not about coverage.
func TestFailedReviewSaysWhy(t *testing.T) {
	t.Parallel()
	doc, _ := page(t, reportertest.FailedReview(), 0)
	status := all(doc, func(n *xhtml.Node) bool { return hasClass(n, "status") })
	if len(status) != 1 || !strings.HasPrefix(text(status[0]), "review failed: no file could be reviewed") {
		t.Errorf("status %q", text(status[0]))
	}
	rows := all(doc, tag("tr"))
	if len(rows) != 3 || !strings.Contains(text(rows[1]), "a.goprovider_errorHTTP 401") {
		t.Errorf("not-reviewed table: %d rows, first %q", len(rows), text(rows[1]))
	}
	if strings.Count(text(doc), "HTTP 401") != 1 || !strings.Contains(text(doc), "review failed: all 2 file review(s) failed") {
		t.Errorf("the detail is not shown once, or an error is lost:\n%s", text(doc))
	}
}
