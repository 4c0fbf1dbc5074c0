package agent

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/ocr-ci/ocr/anchor"
	"github.com/ocr-ci/ocr/review"
	"github.com/ocr-ci/ocr/tools"
	openai "github.com/sashabaranov/go-openai"
)

// maxChoicePlaces bounds the places one comment shows in the choice
// request (the held one first).
const maxChoicePlaces = 6

// choiceData fills one comment of choose.tmpl.
type choiceData struct {
	N                   int
	Path, Content, Code string
	Places              []choicePlace
}

// choicePlace is one place a quote matched, with its lines numbered.
type choicePlace struct {
	Line int
	Text string
}

var choiceLine = regexp.MustCompile(`(?m)^\s*(\d+)\s*:\s*(\d+)\s*$`)

// choose asks, in one small request of its own, which place each of a
// call's ambiguous comments (by arrival number) means, and moves each
// answered one there. The request shows only the comments, their quotes
// and the lines at each place: asking in the review's conversation cost a
// turn whose prompt was the whole conversation (issue 23). A comment the
// answer does not place stays held, marked ambiguous.
func (t *task) choose(ctx context.Context, ns []int) {
	data := t.choices(ctx, ns)
	if len(data) == 0 {
		return
	}
	c := &conv{}
	c.system(t.run.chooseSystem)
	c.user(t.a.prompts.render(tmplChoose, data))
	resp, err := t.send(ctx, openai.ChatCompletionRequest{Messages: c.msgs}, c.total)
	if err != nil || len(resp.Choices) == 0 {
		return
	}
	asked := map[int]bool{}
	for _, d := range data {
		asked[d.N] = true
	}
	for _, m := range choiceLine.FindAllStringSubmatch(resp.Choices[0].Message.Content, -1) {
		n, _ := strconv.Atoi(m[1]) // the pattern matched digits only
		line, _ := strconv.Atoi(m[2])
		if asked[n] {
			t.place(n, line)
			delete(asked, n) // the first answer for a comment stands
		}
	}
}

// choices describes the held comments numbered ns for the request.
func (t *task) choices(ctx context.Context, ns []int) []choiceData {
	t.mu.Lock()
	var held []indexed
	for _, e := range t.comments {
		for _, n := range ns {
			if e.n == n && e.focus != nil {
				held = append(held, e)
			}
		}
	}
	t.mu.Unlock()
	out := make([]choiceData, 0, len(held))
	for _, e := range held {
		d := choiceData{N: e.n, Path: e.c.Path, Content: e.c.Content, Code: e.focus.Code}
		for _, s := range e.focus.Starts[:min(len(e.focus.Starts), maxChoicePlaces)] {
			d.Places = append(d.Places, choicePlace{Line: s, Text: t.numbered(ctx, *e.focus, s)})
		}
		out = append(out, d)
	}
	return out
}

// numbered is the lines of f's place starting at s, with one line of
// context either side where the change set has it, each line numbered.
func (t *task) numbered(ctx context.Context, f anchor.Focus, s int) string {
	for _, pad := range []int{1, 0} {
		loc := review.Location{Path: f.Path, Side: f.Side, StartLine: max(1, s-pad), EndLine: s + f.Span + pad}
		if text, ok := t.text(ctx, loc); ok {
			lines := strings.Split(text, "\n")
			for i := range lines {
				lines[i] = fmt.Sprintf("%4d | %s", loc.StartLine+i, lines[i])
			}
			return strings.Join(lines, "\n")
		}
	}
	return f.Code
}

// place moves held comment n onto its place starting at line, when line
// is one of its places; it is then no longer ambiguous.
func (t *task) place(n, line int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for i, e := range t.comments {
		if e.n != n || e.focus == nil {
			continue
		}
		at := e.c.Location
		at.StartLine, at.EndLine = line, line+e.focus.Span
		loc, _, ok := e.focus.Refine(at, nil)
		if ok && len(loc.Candidates) == 0 {
			e.c.Location, e.focus = loc, nil
			t.comments[i] = e
		}
	}
}

// placed is what the model is told about comment n after the choice.
func (t *task) placed(n int) tools.Placement {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, e := range t.comments {
		if e.n == n {
			return placement(e, false)
		}
	}
	return tools.Placement{}
}
