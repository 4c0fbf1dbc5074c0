package posting

import (
	"fmt"
	"strings"
	"testing"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"

	"github.com/ocr-ci/ocr/review"
)

// hostileLinks are model texts that try to post a clickable link to a
// host ocr does not allow, each in its own way.
var hostileLinks = []string{
	"fix it here: [docs](https://evil.example/login)",
	"[docs][1]\n\n[1]: https://evil.example/login",
	"[docs]\n\n[docs]: <https://evil.example/login> \"Docs\"",
	"[docs](<https://evil.example/login>) [t](https://evil.example \"title\") [n](\nhttps://evil.example/n)",
	"[rel](//evil.example/x) [js](javascript:alert(1)) [enc](https&#58;//evil.example)",
	"<https://evil.example/login> <mailto:a@evil.example>",
	"www.evil.example/login and WWW.EVIL.EXAMPLE",
	"https://evil.example HTTPS://EVIL.EXAMPLE/x ftp://evil.example/f smb://evil.example/s",
	"https\\://evil.example/a www\\.evil.example https:\\/\\/evil.example/b",
	"https://github.com@evil.example/ https://github.com.evil.example/ https://github.com\\@evil.example/",
	"https://github.com:443@evil.example/ http://[::1]/ https://%65vil.example/",
	"mail admin@evil.example, or mailto:root@evil.example",
	"- item https://evil.example/l\n> quote www.evil.example\n1. *https://evil.example/e* _www.evil.example_",
	"| a | b |\n|---|---|\n| https://evil.example/x|y | www.evil.example`|`z |",
	"`code`https://evil.example/c`x` and \\`https://evil.example/d\\` and a\\https://evil.example/e",
	"see (https://evil.example/x). and https://evil.example/y?! or \"https://evil.example/z\"",
	"![img](https://evil.example/x.png) [![i](https://github.com/a.png)](https://evil.example/b)",
	"[^1]\n\n[^1]: https://evil.example/fn",
	"```\nhttps://evil.example/in-code\n```\nafter https://evil.example/after-fence",
	"https://evil.example/" + strings.Repeat("a", 300) + " www.evil.example/\u00a0x",
}

// TestModelLinksAreShownAsCode: whatever link syntax the model uses, the
// posted comment (GitHub and GitLab), the sticky summary and every one-line
// slot render no link to a host outside the forge's and OCR_LINK_ALLOW's,
// and a URL a renderer would link is shown as code.
func TestModelLinksAreShownAsCode(t *testing.T) {
	for i, payload := range hostileLinks {
		p := Placement{Comment: review.Comment{
			Location: review.Location{Path: "a.go", Side: review.SideNew, StartLine: 3, EndLine: 3},
			Severity: review.SeverityHigh, Category: "bug", Content: payload, Suggestion: "x := 1",
		}, FP: fmt.Sprintf("fp%02d", i), Kind: PlaceInline, Side: review.SideNew, Start: 3, End: 3, Suggest: true, Note: payload}
		bodies := map[string]string{}
		for _, fl := range []Flavor{FlavorGitHub, FlavorGitLab} {
			bodies[fmt.Sprint("comment ", fl)] = CommentBody(p, Style{Flavor: fl, Links: testLinks})
		}
		p.Kind = PlaceSummary
		r := &review.Review{Status: review.StatusComplete, Errors: []string{payload},
			Files: []review.FileCoverage{{Path: "x.go", Reason: review.Reason(payload)}}}
		bodies["summary"] = StickySummary(StickyInput{Review: r, Placements: []Placement{p}, Notes: []string{payload},
			Resolved: []ResolvedItem{{Path: "y.go", Link: "https://github.com/o/r/pull/7#discussion_r1", Thread: payload}},
			Links:    testLinks})
		for name, body := range bodies {
			marker := "<!-- ocr:fp=" + p.FP + " -->"
			for _, problem := range renderProblems(body, allowedOwnHTML(marker, summaryMarker), nil) {
				t.Errorf("payload %d %q, %s: %s\nbody:\n%s", i, payload, name, problem, body)
			}
		}
	}
}

// TestAllowedLinksStayLinks: a URL to the forge or to a host of
// OCR_LINK_ALLOW is still a link, and a disallowed one is in a code span.
func TestAllowedLinksStayLinks(t *testing.T) {
	body := postSafe("see https://github.com/o/r/pull/1, https://docs.example.org/x and https://evil.example/y", testLinks)
	src := []byte(body)
	var links, code []string
	_ = ast.Walk(commonMark.Parser().Parse(text.NewReader(src)), func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if dest := renderedLink(n, src); entering && dest != "" {
			links = append(links, dest)
		}
		if c, ok := n.(*ast.CodeSpan); ok && entering {
			var b strings.Builder
			codeText(c, src, &b)
			code = append(code, b.String())
		}
		return ast.WalkContinue, nil
	})
	want := []string{"https://github.com/o/r/pull/1", "https://docs.example.org/x"}
	if fmt.Sprint(links) != fmt.Sprint(want) || fmt.Sprint(code) != "[https://evil.example/y]" {
		t.Errorf("links %q, code %q; want links %q and the evil URL as code\nbody: %s", links, code, want, body)
	}
}

func TestLinksAllowed(t *testing.T) {
	l := NewLinks("https://GHE.example.com:8443/", " docs.example.org ", "https://api.example.net/v1")
	for link, want := range map[string]bool{
		"https://ghe.example.com/o/r":             true,
		"HTTP://ghe.example.com:8443/x":           true,
		"https://ghe.example.coM/x":               false, // a renderer may link https://ghe.example.co
		"www.ghe.example.com":                     false,
		"https://docs.example.org?q=1":            true,
		"https://api.example.net":                 true,
		"https\\://docs.example.org/a":            true,
		"https://docs.example.org@evil.example":   false,
		"https://docs.example.org\\@evil.example": false,
		"https://evil.example/@docs.example.org":  false,
		"https://docs.example.org.evil.example":   false,
		"ftp://docs.example.org/x":                false,
		"https://%64ocs.example.org":              false,
		"admin@docs.example.org":                  false,
		"https://docs.example.org#(http://0.a":    false, // "0https://…" is not linked from its start
		"https://docs.example.org/?next=www.e.x":  false,
		"https://www.docs.example.org/":           false,
	} {
		if got := l.allowed(link); got != want {
			t.Errorf("allowed(%q) = %v, want %v", link, got, want)
		}
	}
	if (Links{}).allowed("https://github.com") {
		t.Error("the zero Links allows a link")
	}
}
