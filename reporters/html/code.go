package html

import (
	"strings"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"

	"github.com/ocr-ci/ocr/anchor/udiff"
	"github.com/ocr-ci/ocr/review"
)

// contextLines is how many lines of the hunk are shown around a finding.
const contextLines = 4

// span is a run of one token class; Class is a chroma short class name
// ("k", "s", …) or "" for plain text. Text is model or repository text and
// is escaped by the template.
type span struct{ Class, Text string }

// codeLine is one line of a finding's code in context.
type codeLine struct {
	Num    int    // 0: no line number (quoted code only)
	Mark   string // "+", "-" or " " in a hunk; "" for quoted code
	Target bool   // the finding's own line
	Spans  []span
}

// snippet is the code shown with a finding: the lines of its hunk around
// it when the change has them, else the code it quotes.
func snippet(files map[string]*udiff.File, c review.Comment) []codeLine {
	if lines := fromHunk(files[c.Path], c); len(lines) > 0 {
		return colour(c.Path, lines)
	}
	var lines []codeLine
	for i, l := range splitLines(c.ExistingCode) {
		num := 0
		if c.StartLine > 0 && c.Side != review.SideOld {
			num = c.StartLine + i
		}
		lines = append(lines, codeLine{Num: num, Target: true, Spans: []span{{Text: l}}})
	}
	return colour(c.Path, lines)
}

// fromHunk is the finding's lines of its hunk with contextLines around,
// on the side the finding is on; nil when no hunk holds them.
func fromHunk(f *udiff.File, c review.Comment) []codeLine {
	if f == nil || c.FileLevel() {
		return nil
	}
	old := c.Side == review.SideOld
	first, last := c.StartLine-contextLines, max(c.EndLine, c.StartLine)+contextLines
	for _, h := range f.Hunks {
		var out []codeLine
		hit, at := false, 0 // at: the last line number seen on the finding's side
		for _, l := range h.Lines {
			n := l.NewLine
			if old {
				n = l.OldLine
			}
			if n > 0 {
				at = n
			}
			// A line of the other side shows where it lies (a deleted line
			// beside the added ones), unnumbered.
			if at < first || at > last || n == 0 && at == last {
				continue
			}
			target := n >= c.StartLine && n <= max(c.EndLine, c.StartLine)
			hit = hit || target
			out = append(out, codeLine{Num: n, Mark: string(rune(l.Kind)), Target: target, Spans: []span{{Text: strings.TrimRight(l.Text, "\r")}}})
		}
		if hit {
			return out
		}
	}
	return nil
}

// colour splits each line into chroma's token classes, for the lexer the
// path names; lines are lexed together so multi-line tokens colour right.
func colour(path string, lines []codeLine) []codeLine {
	lexer := lexers.Match(path)
	if lexer == nil || len(lines) == 0 {
		return lines
	}
	texts := make([]string, len(lines))
	for i, l := range lines {
		texts[i] = l.Spans[0].Text
	}
	it, err := chroma.Coalesce(lexer).Tokenise(nil, strings.Join(texts, "\n")+"\n")
	if err != nil {
		return lines
	}
	for i, toks := range chroma.SplitTokensIntoLines(it.Tokens()) {
		if i >= len(lines) {
			break
		}
		lines[i].Spans = spans(toks)
	}
	return lines
}

// spans turns one line's tokens into spans, the newline dropped.
func spans(toks []chroma.Token) []span {
	var out []span
	for _, t := range toks {
		text := strings.TrimSuffix(t.Value, "\n")
		if text == "" {
			continue
		}
		out = append(out, span{Class: chroma.StandardTypes[t.Type], Text: text})
	}
	return out
}

// splitLines splits code into lines without the last newline; "" is none.
func splitLines(code string) []string {
	code = strings.TrimRight(code, "\n")
	if strings.TrimSpace(code) == "" {
		return nil
	}
	return strings.Split(code, "\n")
}
