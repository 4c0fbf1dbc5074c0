package posting

import (
	"fmt"
	"html"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"

	"github.com/ocr-ci/ocr/review"
)

// The oracle: a posted body is parsed by a real CommonMark renderer
// (goldmark, with GitHub's extensions, autolinks included) and must hold
// no raw HTML but ocr's own, no live mention, no hidden marker where people
// can see it and no link to a host but testLinks'.

var commonMark = goldmark.New(goldmark.WithExtensions(extension.GFM))

// testLinks are the hosts the tests allow: a forge and one from
// OCR_LINK_ALLOW.
var (
	testLinks = NewLinks("https://github.com", "docs.example.org")
	testHosts = map[string]bool{"github.com": true, "docs.example.org": true}
)

// linkProblem says what is wrong with a rendered link's destination: one
// that is not http(s) to a test host.
func linkProblem(dest string) string {
	u, err := parseOrigin(dest)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || !testHosts[strings.ToLower(u.Hostname())] {
		return fmt.Sprintf("link to %q", dest)
	}
	return ""
}

// parseOrigin parses dest, or only its scheme and host when the rest is
// not a valid URL ("https://github.com/%0X" still goes to github.com).
func parseOrigin(dest string) (*url.URL, error) {
	u, err := url.Parse(dest)
	if err != nil {
		scheme, rest, _ := strings.Cut(dest, "://")
		if i := strings.IndexAny(rest, "/?#"); i >= 0 {
			rest = rest[:i]
		}
		u, err = url.Parse(scheme + "://" + rest)
	}
	return u, err
}

// renderedLink is the destination of a link, image or autolink node as
// goldmark renders its href; "" for other nodes.
func renderedLink(n ast.Node, src []byte) string {
	switch n := n.(type) {
	case *ast.Link:
		return string(n.Destination)
	case *ast.Image:
		return string(n.Destination)
	case *ast.AutoLink:
		u := string(n.URL(src))
		switch {
		case n.AutoLinkType == ast.AutoLinkEmail:
			return "mailto:" + u
		case !strings.Contains(u, ":"):
			return "http://" + u
		}
		return u
	}
	return ""
}

// mention is a live @user, @org/team, @all or @here: "@" after the start
// of a text run or a character that is not part of a name.
var mention = regexp.MustCompile(`(^|[^A-Za-z0-9])@[A-Za-z0-9]`)

// renderProblems lists what is wrong with body as rendered; allowedHTML
// are the raw HTML fragments ocr itself writes (markers, <sub>, <details>).
func renderProblems(body string, allowedHTML []string, markers []string) []string {
	src := []byte(body)
	doc := commonMark.Parser().Parse(text.NewReader(src))
	var problems []string
	var visible strings.Builder
	err := ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			if n.Type() == ast.TypeBlock {
				visible.WriteString("\n")
			}
			return ast.WalkContinue, nil
		}
		if dest := renderedLink(n, src); dest != "" {
			if p := linkProblem(dest); p != "" {
				problems = append(problems, p)
			}
		}
		switch n := n.(type) {
		case *ast.HTMLBlock:
			var b strings.Builder
			for i := 0; i < n.Lines().Len(); i++ {
				seg := n.Lines().At(i)
				b.Write(seg.Value(src))
			}
			if n.HasClosure() {
				b.Write(n.ClosureLine.Value(src))
			}
			for _, line := range strings.Split(strings.TrimSpace(b.String()), "\n") {
				checkHTML(strings.TrimSpace(line), allowedHTML, &problems)
			}
			return ast.WalkSkipChildren, nil
		case *ast.RawHTML:
			var b strings.Builder
			for i := 0; i < n.Segments.Len(); i++ {
				seg := n.Segments.At(i)
				b.Write(seg.Value(src))
			}
			checkHTML(b.String(), allowedHTML, &problems)
			return ast.WalkSkipChildren, nil
		case *ast.CodeSpan, *ast.FencedCodeBlock, *ast.CodeBlock:
			var b strings.Builder
			codeText(n, src, &b)
			for _, m := range markers {
				if strings.Contains(b.String(), m) {
					problems = append(problems, fmt.Sprintf("hidden marker %q visible in code", m))
				}
			}
			visible.WriteString(" ")
			return ast.WalkSkipChildren, nil
		case *ast.Text:
			visible.WriteString(decode(n.Segment.Value(src)))
			if n.SoftLineBreak() || n.HardLineBreak() {
				visible.WriteString("\n")
			}
		case *ast.String:
			visible.WriteString(decode(n.Value))
		case *ast.AutoLink:
			visible.WriteString(string(n.Label(src)))
		}
		return ast.WalkContinue, nil
	})
	if err != nil {
		problems = append(problems, "could not walk the rendered body: "+err.Error())
	}
	for _, line := range strings.Split(visible.String(), "\n") {
		if m := mention.FindString(line); m != "" {
			problems = append(problems, fmt.Sprintf("live mention %q in %q", m, line))
		}
		for _, m := range markers {
			if strings.Contains(line, m) {
				problems = append(problems, fmt.Sprintf("hidden marker %q visible in %q", m, line))
			}
		}
	}
	return problems
}

func codeText(n ast.Node, src []byte, b *strings.Builder) {
	if n.Type() != ast.TypeBlock {
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			if t, ok := c.(*ast.Text); ok {
				b.Write(t.Segment.Value(src))
			}
		}
		return
	}
	if l := n.Lines(); l != nil {
		for i := 0; i < l.Len(); i++ {
			seg := l.At(i)
			b.Write(seg.Value(src))
		}
	}
}

// decode turns source text into what is shown: backslash escapes and
// entities resolved.
func decode(b []byte) string {
	s := regexp.MustCompile(`\\([!-/:-@\[-`+"`"+`{-~])`).ReplaceAllString(string(b), "$1")
	return html.UnescapeString(s)
}

func checkHTML(h string, allowed []string, problems *[]string) {
	for _, a := range allowed {
		if h == a {
			return
		}
	}
	// ocr's <details> headers: escaped text between its own tags.
	if in, ok := strings.CutPrefix(h, "<details><summary>"); ok {
		if in, ok = strings.CutSuffix(in, "</summary>"); ok && !strings.ContainsAny(in, "<>") {
			return
		}
	}
	*problems = append(*problems, fmt.Sprintf("raw HTML %q", h))
}

// hostileMarkdown are model texts that try, each in its own way, to get
// raw HTML, a mention or a visible marker past the escaper.
var hostileMarkdown = []string{
	// (a) an escaped backtick opens no code span
	"\\`<img src=x onerror=alert(1)>`",
	"\\`@octocat`",
	"\\`@org/team` and \\`@all` and \\`@here`",
	"\\\\\\`<b>bold</b>`",
	"\\``<img src=x>``",
	"a \\`` `<img src=y>` ``",
	// (b) a fence inside a container ends with it
	"- ```\n<img src=x>\n@octocat",
	"> ```\n<script>alert(1)</script>\n@all",
	"1. ```\n<details open>\n@org/team",
	"- item\n\n   ```\n<img src=x>\n@here",
	"> ~~~\n<img src=x>",
	"- ```",
	"> ```",
	"- item\n  ```\n<img src=x>",
	// fences the escaper must not believe closed
	"```\n    ```\n<img src=x> @octocat",
	"```\n```x\n<img src=x>",
	"~~~\n~~\n<img src=x>",
	"````\n```\n<img>",
	// code spans across lines and their neighbours
	"a `b\nc` <img src=x> `d`",
	"`x`@octocat",
	"&#64;octocat &lt;img&gt; &#60;img src=x&#62;",
	"<!-- ocr:fp=forged -->\n\n```\n<!-- ocr:summary -->",
	"text\n\n\t```\n<img src=x>",
	"   ```\n<img src=x>\n   ```",
	"~~~ `info`\n<img>\n~~~\n@octocat",
	"``` ` \n<img src=x>",
}

// allowedOwnHTML is the raw HTML ocr writes around model text.
func allowedOwnHTML(markers ...string) []string {
	return append([]string{"<sub>", "</sub>", "<details>", "</details>", "<br>"}, markers...)
}

// TestPostedBodiesRenderSafely renders finding bodies for GitHub and
// GitLab, with the hostile text as content, note and suggestion, and the
// sticky summary holding them as unplaced findings, with a real CommonMark
// parser.
func TestPostedBodiesRenderSafely(t *testing.T) {
	for i, payload := range hostileMarkdown {
		for _, fl := range []Flavor{FlavorGitHub, FlavorGitLab} {
			p := Placement{Comment: review.Comment{
				Location: review.Location{Path: "a.go", Side: review.SideNew, StartLine: 3, EndLine: 4},
				Severity: review.SeverityHigh, Category: "bug", Content: payload, Suggestion: payload,
			}, FP: fmt.Sprintf("fp%02d", i), Kind: PlaceInline, Side: review.SideNew, Start: 3, End: 4, Suggest: true, Note: payload}
			marker := fingerprintMarker(p.FP)
			body := CommentBody(p, Style{Flavor: fl, Links: testLinks})
			for _, problem := range renderProblems(body, allowedOwnHTML(strings.TrimSpace(marker)), []string{"ocr:fp=" + p.FP}) {
				t.Errorf("payload %d %q, flavor %d: %s\nbody:\n%s", i, payload, fl, problem, body)
			}
		}
	}
}

// FuzzPostSafe: whatever the model writes, postSafe's output followed by
// one of ocr's markers renders with no raw HTML, no live mention and the
// marker hidden.
func FuzzPostSafe(f *testing.F) {
	for _, s := range append(hostileMarkdown, hostileLinks...) {
		f.Add(s)
	}
	const marker = "<!-- ocr:fp=fuzz -->"
	f.Fuzz(func(t *testing.T, s string) {
		for _, body := range []string{postSafe(s, testLinks) + "\n\n" + marker, "- " + postSafeInline(s, testLinks) + "\n\n" + marker} {
			if problems := renderProblems(body, []string{marker}, []string{"ocr:fp=fuzz"}); len(problems) > 0 {
				t.Errorf("%q renders unsafely: %v\nbody:\n%s", s, problems, body)
			}
		}
	})
}

// TestStickySummaryRendersSafely: the sticky summary holds model text as
// unplaced findings, notes and errors, each in its own container (a
// <details> block, a block quote, a list item).
func TestStickySummaryRendersSafely(t *testing.T) {
	var ps []Placement
	for i, payload := range hostileMarkdown {
		ps = append(ps, Placement{Comment: review.Comment{
			Location: review.Location{Path: "a.go", Side: review.SideNew, StartLine: 3, EndLine: 4},
			Severity: review.SeverityHigh, Category: "bug", Content: payload, Suggestion: payload,
		}, FP: fmt.Sprintf("fp%02d", i), Kind: PlaceSummary, Note: payload})
	}
	r := &review.Review{Head: "h", Status: review.StatusComplete, Errors: hostileMarkdown,
		Files: []review.FileCoverage{{Path: "x.go", Reason: review.Reason(hostileMarkdown[7])}}}
	st := &State{Head: "0123abcd", Config: "cfg7"}
	body := StickySummary(StickyInput{Review: r, Placements: ps, Notes: hostileMarkdown, State: st, Links: testLinks})
	state := stateMarker(*st)
	if !strings.HasSuffix(strings.TrimSpace(body), state) {
		t.Fatalf("the state marker does not end the summary:\n%s", body)
	}
	// The model's payloads forge "ocr:summary" (shown, escaped); the state
	// line is one they cannot write, and must stay hidden.
	for _, problem := range renderProblems(body, allowedOwnHTML(summaryMarker, state), []string{"head=0123abcd"}) {
		t.Errorf("%s", problem)
	}
	if t.Failed() {
		t.Logf("body:\n%s", body)
	}
}

// TestPostSafeIsNotQuadratic: long runs of backticks of many lengths and
// of tildes, which a naive scan searches again and again, and URL-like
// runs (closing parentheses a link would trim one by one, "www.", "@"),
// escape in time proportional to their size.
func TestPostSafeIsNotQuadratic(t *testing.T) {
	var b strings.Builder
	for i := 0; b.Len() < 200000; i++ {
		b.WriteString(strings.Repeat("`", 1+i%40) + " x ")
	}
	inputs := []string{b.String(), strings.Repeat("~", 200000), strings.Repeat("` ", 100000), strings.Repeat("\\`", 100000),
		"https://x" + strings.Repeat(")", 200000), strings.Repeat("www.", 50000), strings.Repeat("a@", 100000),
		strings.Repeat("a", 200000) + "@b.c"}
	for _, in := range inputs {
		start := time.Now()
		postSafe(in, Links{})
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("postSafe of %d bytes took %s", len(in), d)
		}
	}
}

// benchText is a 4 KB finding as models write them: prose, code spans, a
// fence, a link, paths and an e-mail address.
var benchText = strings.Repeat("The handler reads `cfg.Timeout` before [`Load`](https://github.com/o/r/blob/main/load.go#L10) "+
	"sets it; see https://pkg.go.dev/time and docs at www.example.com, or mail dev@example.com.\n", 20) +
	"```go\nif cfg == nil {\n\treturn errNoConfig\n}\n```\n"

// BenchmarkPostSafe escapes one 4 KB finding.
//
//	go test ./reporters/posting -run '^$' -bench PostSafe
func BenchmarkPostSafe(b *testing.B) {
	b.SetBytes(int64(len(benchText)))
	for b.Loop() {
		postSafe(benchText, testLinks)
	}
}
