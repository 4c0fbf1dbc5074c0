package reportertest

import (
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"
)

// Rendered is what a CommonMark renderer (goldmark with GitHub's
// extensions, autolinks included) makes of a posted body: the oracle of
// the posting tests, which never judge Markdown by string matching.
type Rendered struct {
	// Links are the destinations of links, images and autolinks, as
	// their href would be.
	Links []string
	// Code are the code blocks and spans.
	Code []Code
	// HTML are the raw HTML blocks and inline tags.
	HTML []string
}

// Code is one code block or span: a fenced block's info string ("" for
// other code) and its text.
type Code struct {
	Info, Text string
}

var gfm = goldmark.New(goldmark.WithExtensions(extension.GFM))

// Render parses body as GitHub and GitLab would.
func Render(body string) Rendered {
	src := []byte(body)
	var r Rendered
	_ = ast.Walk(gfm.Parser().Parse(text.NewReader(src)), func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Link:
			r.Links = append(r.Links, string(n.Destination))
		case *ast.Image:
			r.Links = append(r.Links, string(n.Destination))
		case *ast.AutoLink:
			r.Links = append(r.Links, autoLinkHref(n, src))
		case *ast.FencedCodeBlock:
			r.Code = append(r.Code, Code{Info: string(n.Language(src)), Text: string(n.Lines().Value(src))})
		case *ast.CodeBlock:
			r.Code = append(r.Code, Code{Text: string(n.Lines().Value(src))})
		case *ast.CodeSpan:
			r.Code = append(r.Code, Code{Text: spanText(n, src)})
		case *ast.HTMLBlock:
			h := string(n.Lines().Value(src))
			if n.HasClosure() {
				h += string(n.ClosureLine.Value(src))
			}
			r.HTML = append(r.HTML, h)
		case *ast.RawHTML:
			r.HTML = append(r.HTML, string(n.Segments.Value(src)))
		}
		return ast.WalkContinue, nil
	})
	return r
}

func spanText(n ast.Node, src []byte) string {
	var b strings.Builder
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if t, ok := c.(*ast.Text); ok {
			b.Write(t.Segment.Value(src))
		}
	}
	return b.String()
}

func autoLinkHref(n *ast.AutoLink, src []byte) string {
	u := string(n.URL(src))
	switch {
	case n.AutoLinkType == ast.AutoLinkEmail:
		return "mailto:" + u
	case !strings.Contains(u, ":"):
		return "http://" + u
	}
	return u
}

// InCode reports whether s occurs in a code block or span.
func (r Rendered) InCode(s string) bool {
	for _, c := range r.Code {
		if strings.Contains(c.Text, s) {
			return true
		}
	}
	return false
}

// InHTML reports whether s occurs in raw HTML (a hidden marker must).
func (r Rendered) InHTML(s string) bool {
	for _, h := range r.HTML {
		if strings.Contains(h, s) {
			return true
		}
	}
	return false
}

// Suggestions are the fenced blocks GitHub or GitLab offer to commit in
// one click: info "suggestion" or "suggestion:-N+M".
func (r Rendered) Suggestions() []Code {
	var out []Code
	for _, c := range r.Code {
		if c.Info == "suggestion" || strings.HasPrefix(c.Info, "suggestion:") {
			out = append(out, c)
		}
	}
	return out
}
