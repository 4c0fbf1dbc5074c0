package reportertest

import (
	"regexp"
	"strings"
	"testing"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

var (
	htmlTagRE  = regexp.MustCompile(`<\s*/?\s*([a-zA-Z!?][^\s>/]*)`)
	mentionRE  = regexp.MustCompile(`[@#][\p{L}\p{N}_]`)
	entityRE   = regexp.MustCompile(`&#[0-9]+;`)
	summaryTag = map[string]bool{"details": true, "summary": true, "br": true, "sub": true}
)

// AssertSummarySafe fails t when the rendered step summary md holds raw
// HTML other than ocr's own tags (details, summary, br, sub), a link or
// image whose destination does not start with linkPrefix, an @mention or
// #reference a forge would link (outside code), or a line that starts
// with "::" (a workflow command).
func AssertSummarySafe(t testing.TB, md, linkPrefix string) {
	t.Helper()
	r := Render(md)
	for _, h := range r.HTML {
		for _, m := range htmlTagRE.FindAllStringSubmatch(h, -1) {
			if !summaryTag[strings.ToLower(m[1])] {
				t.Errorf("raw HTML %q in the rendered summary:\n%s", m[0], md)
			}
		}
		if m := mentionRE.FindString(entityRE.ReplaceAllString(h, "")); m != "" {
			t.Errorf("mention or reference %q in raw HTML:\n%s", m, md)
		}
	}
	for _, l := range r.Links {
		if !strings.HasPrefix(l, linkPrefix) {
			t.Errorf("link or image to %q in the rendered summary:\n%s", l, md)
		}
	}
	if m := mentionRE.FindString(proseText(md)); m != "" {
		t.Errorf("mention or reference %q in the rendered text:\n%s", m, md)
	}
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(strings.TrimLeft(line, " \t"), "::") {
			t.Errorf("a line starts with \"::\" (a workflow command): %q", line)
		}
	}
}

// proseText is the rendered text outside code spans and blocks, where a
// forge turns @name and #1 into links.
func proseText(md string) string {
	src := []byte(md)
	var b strings.Builder
	_ = ast.Walk(gfm.Parser().Parse(text.NewReader(src)), func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.CodeSpan, *ast.FencedCodeBlock, *ast.CodeBlock:
			b.WriteString("\n")
			return ast.WalkSkipChildren, nil
		case *ast.Text:
			b.Write(n.Segment.Value(src))
			if n.SoftLineBreak() || n.HardLineBreak() {
				b.WriteString("\n")
			}
		case *ast.String:
			b.Write(n.Value)
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}
