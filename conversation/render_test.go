package conversation_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"
)

var (
	commonMark = goldmark.New(goldmark.WithExtensions(extension.GFM))
	// liveMention is "@name" after the start of a text run or a character
	// that is not part of a name.
	liveMention = regexp.MustCompile(`(^|[^A-Za-z0-9])@[A-Za-z0-9]`)
	// ocrMarker is the only raw HTML ocr writes: its hidden marker line.
	ocrMarker = regexp.MustCompile(`^<!-- ocr:[a-z]+( verb=[a-z]+)?( fp=[0-9A-Za-z_-]+)?( by=[0-9A-Za-z_.\[\]-]+)?( reason=[0-9A-Za-z+/]+)?( at=[0-9TZ:-]+)? -->$`)
)

// checkRendered renders body with a CommonMark (GFM) parser: it must hold
// no raw HTML but ocr's marker as its last block, no image, no link and no
// live mention.
func checkRendered(t *testing.T, body string) {
	t.Helper()
	src := []byte(body)
	doc := commonMark.Parser().Parse(text.NewReader(src))
	err := ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.HTMLBlock:
			var b strings.Builder
			for i := 0; i < n.Lines().Len(); i++ {
				seg := n.Lines().At(i)
				b.Write(seg.Value(src))
			}
			if !ocrMarker.MatchString(strings.TrimSpace(b.String())) || n.NextSibling() != nil {
				t.Errorf("raw HTML block %q in:\n%s", b.String(), body)
			}
		case *ast.RawHTML:
			t.Errorf("inline raw HTML in:\n%s", body)
		case *ast.Image, *ast.Link, *ast.AutoLink:
			t.Errorf("a %s in:\n%s", n.Kind(), body)
		case *ast.CodeSpan, *ast.FencedCodeBlock, *ast.CodeBlock:
			return ast.WalkSkipChildren, nil
		case *ast.Text:
			if m := liveMention.FindString(string(n.Segment.Value(src))); m != "" {
				t.Errorf("live mention %q in:\n%s", m, body)
			}
		}
		return ast.WalkContinue, nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
