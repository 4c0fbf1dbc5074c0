package posting

import (
	"fmt"
	"strings"
	"testing"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"

	"github.com/ocr-ci/ocr/review"
)

// renderedBlock is a code block or an HTML block as goldmark parsed it.
type renderedBlock struct {
	kind string // "code" (fenced, indented or span) or "html"
	info string // a fenced block's info string
	text string
}

// renderedBlocks lists body's code and HTML, in order.
func renderedBlocks(body string) []renderedBlock {
	src := []byte(body)
	var out []renderedBlock
	_ = ast.Walk(commonMark.Parser().Parse(text.NewReader(src)), func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		var b strings.Builder
		switch n := n.(type) {
		case *ast.FencedCodeBlock:
			codeText(n, src, &b)
			out = append(out, renderedBlock{kind: "code", info: string(n.Language(src)), text: b.String()})
		case *ast.CodeBlock, *ast.CodeSpan:
			codeText(n, src, &b)
			out = append(out, renderedBlock{kind: "code", text: b.String()})
		case *ast.HTMLBlock:
			for i := 0; i < n.Lines().Len(); i++ {
				seg := n.Lines().At(i)
				b.Write(seg.Value(src))
			}
			out = append(out, renderedBlock{kind: "html", text: b.String()})
		case *ast.RawHTML:
			for i := 0; i < n.Segments.Len(); i++ {
				seg := n.Segments.At(i)
				b.Write(seg.Value(src))
			}
			out = append(out, renderedBlock{kind: "html", text: b.String()})
		default:
			return ast.WalkContinue, nil
		}
		return ast.WalkSkipChildren, nil
	})
	return out
}

// checkMarkerHidden fails unless marker renders as HTML, in no code block.
func checkMarkerHidden(t *testing.T, what, body, marker string) {
	t.Helper()
	asHTML := false
	for _, b := range renderedBlocks(body) {
		switch {
		case b.kind == "code" && strings.Contains(b.text, marker):
			t.Errorf("%s: the marker %q renders inside a code block (%q)", what, marker, b.info)
		case b.kind == "html" && strings.Contains(b.text, marker):
			asHTML = true
		}
	}
	if !asHTML {
		t.Errorf("%s: the marker %q does not render as HTML", what, marker)
	}
}

// suggestionPlacement is an applicable suggestion for lines 3–4.
func suggestionPlacement(code string) Placement {
	return Placement{Comment: review.Comment{
		Location: review.Location{Path: "a.go", Side: review.SideNew, StartLine: 3, EndLine: 4},
		Severity: review.SeverityHigh, Category: "bug", Content: "Fix it.", Suggestion: code,
	}, FP: "fpsugg", Kind: PlaceInline, Side: review.SideNew, Start: 3, End: 4, Suggest: true, Note: "moved"}
}

// TestLongSuggestionIsDroppedWhole: a suggestion too long for the body is
// never cut (the click would commit half a line, and the marker would end
// up in the code block): it is replaced by a note, and the marker renders
// as HTML. Also in the sticky summary's unplaced findings.
func TestLongSuggestionIsDroppedWhole(t *testing.T) {
	code := strings.Repeat("\tx = append(x, \"a fairly long line of code\")\n", 800) // ~36 KB
	p := suggestionPlacement(code)
	for _, fl := range []Flavor{FlavorGitHub, FlavorGitLab} {
		body := CommentBody(p, Style{Flavor: fl})
		for _, b := range renderedBlocks(body) {
			if b.kind == "code" {
				t.Errorf("flavor %d: a code block (%q, %d bytes) is left of a suggestion that does not fit", fl, b.info, len(b.text))
			}
		}
		if !strings.Contains(body, "Suggestion too long to show; see the SARIF/JSON report.") || len(body) > maxBody {
			t.Errorf("flavor %d: %d bytes, no note:\n%.300s", fl, len(body), body)
		}
		checkMarkerHidden(t, fmt.Sprint("flavor ", fl), body, fingerprintMarker(p.FP))
	}
	p.Kind, p.Suggestion = PlaceSummary, code[:5000]
	st := &State{Head: "0123abcd", Config: "cfg7"}
	body := StickySummary(StickyInput{Review: &review.Review{Status: review.StatusComplete}, Placements: []Placement{p}, State: st})
	for _, b := range renderedBlocks(body) {
		if b.kind == "code" && b.info == "" && len(b.text) > 100 {
			t.Errorf("summary: a cut suggestion is shown (%d bytes)", len(b.text))
		}
	}
	checkMarkerHidden(t, "summary", body, stateMarker(*st))
}

// TestBidiSuggestionIsNotOneClick: a suggestion that holds bidirectional
// or invisible characters (Trojan Source) is never a one-click suggestion
// on GitHub or GitLab: it is plain code with the characters made visible,
// after a warning.
func TestBidiSuggestionIsNotOneClick(t *testing.T) {
	hidden := []rune{0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0x200e, 0x200f, 0x061c,
		0x200b, 0x200c, 0x200d, 0x2060, 0xfeff, 0xe0041, 0x1b, '\r'}
	for _, r := range hidden {
		code := "if access != \"user" + string(r) + "\" { // admins only\n\treturn\n}"
		for _, fl := range []Flavor{FlavorGitHub, FlavorGitLab} {
			body := CommentBody(suggestionPlacement(code), Style{Flavor: fl})
			visible := fmt.Sprintf("<U+%04X>", r)
			shown := false
			for _, b := range renderedBlocks(body) {
				if strings.HasPrefix(b.info, "suggestion") {
					t.Errorf("U+%04X, flavor %d: offered as a one-click suggestion:\n%s", r, fl, body)
				}
				shown = shown || b.kind == "code" && b.info == "" && strings.Contains(b.text, visible)
			}
			if !shown || strings.ContainsRune(body, r) || !strings.Contains(body, "**Warning:** this suggestion contains invisible") {
				t.Errorf("U+%04X, flavor %d: want the code with %s and a warning, without the character:\n%q", r, fl, visible, body)
			}
			checkMarkerHidden(t, fmt.Sprintf("U+%04X", r), body, fingerprintMarker("fpsugg"))
		}
	}
	// Plain code stays applicable.
	body := CommentBody(suggestionPlacement("if access != \"user\" {"), Style{Flavor: FlavorGitLab})
	if b := renderedBlocks(body); len(b) < 1 || b[0].info != "suggestion:-1+0" {
		t.Errorf("a clean suggestion is not applicable:\n%s", body)
	}
}

// TestStickySummaryCutKeepsBlocksWhole: a summary over its size limit
// leaves out whole findings: no fence or <details> is left open, the
// hidden state renders as HTML, and it says how many were left out.
func TestStickySummaryCutKeepsBlocksWhole(t *testing.T) {
	var ps []Placement
	for i := 0; i < 40; i++ {
		p := suggestionPlacement(strings.Repeat(fmt.Sprintf("line %d of the suggestion\n", i), 140)) // ~3.6 KB
		p.Kind, p.FP, p.Content = PlaceSummary, fmt.Sprintf("fp%02d", i), strings.Repeat("Long finding text. ", 60)
		ps = append(ps, p)
	}
	st := &State{Head: "0123abcd", Config: "cfg7"}
	body := StickySummary(StickyInput{Review: &review.Review{Status: review.StatusComplete}, Placements: ps, State: st})
	if n := len([]rune(body)); n > 65536 {
		t.Errorf("the summary is %d characters", n)
	}
	opened, closed := strings.Count(body, "<details>"), strings.Count(body, "</details>")
	if opened != closed || opened == 0 || opened == 40 {
		t.Errorf("%d <details> opened, %d closed: want whole findings, some left out", opened, closed)
	}
	fences := 0
	for _, b := range renderedBlocks(body) {
		if b.kind == "code" && b.info == "" {
			fences++
			if !strings.HasSuffix(b.text, "suggestion\n") {
				t.Errorf("a code block holds more than a suggestion: ...%q", b.text[max(0, len(b.text)-80):])
			}
		}
	}
	if fences != opened {
		t.Errorf("%d code blocks for %d findings shown", fences, opened)
	}
	checkMarkerHidden(t, "summary", body, stateMarker(*st))
	if !strings.Contains(body, fmt.Sprintf("\n%d more item(s) did not fit", 40-opened)) {
		t.Errorf("the summary does not say how many findings were left out:\n...%s", body[len(body)-600:])
	}
}
