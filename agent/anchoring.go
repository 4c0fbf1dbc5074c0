package agent

import (
	"context"
	"maps"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/ocr-ci/ocr/anchor"
	"github.com/ocr-ci/ocr/review"
	"github.com/ocr-ci/ocr/tools"
	openai "github.com/sashabaranov/go-openai"
)

// indexed keeps a comment's arrival order: relocation runs in parallel but
// the output order is deterministic. focus is set while the comment is
// held on an ambiguous quote: a re-send that matches it replaces it.
type indexed struct {
	n     int
	c     review.Comment
	focus *anchor.Focus
	call  int  // the code_comment call that sent it
	asked bool // the model was asked where it belongs (at most once)
}

// anchor places a code_comment call's items against the diff now and says
// where each landed. Only an item whose quote is not found as sent goes to
// the run's worker pool (its relocation request is a model call); the loop
// does not wait for it. ctx is the group's: it bounds the whole-file reads
// and the relocation requests.
func (t *task) anchor(ctx context.Context, items []tools.CommentInput, reasoning string) []tools.Placement {
	out := make([]tools.Placement, 0, len(items))
	asked := map[int]int{} // out index -> arrival number
	t.mu.Lock()
	t.calls++
	call := t.calls
	t.mu.Unlock()
	for _, it := range items {
		p := t.commentPath(it.Path)
		loc, places := t.resolve(ctx, p, it.ExistingCode, nil)
		if loc.FileLevel() && strings.TrimSpace(it.ExistingCode) != "" {
			t.later(ctx, it, reasoning)
			out = append(out, tools.Placement{Path: loc.Path, Later: true})
			continue
		}
		pl, n := t.keep(t.comment(ctx, it, loc, reasoning), places, call)
		if n > 0 {
			asked[len(out)] = n
		}
		out = append(out, pl)
	}
	if len(asked) == 0 {
		return out
	}
	t.choose(ctx, slices.Sorted(maps.Values(asked)))
	for i, n := range asked {
		out[i] = t.placed(n)
	}
	return out
}

// later anchors it on the worker pool with the relocation step.
func (t *task) later(ctx context.Context, it tools.CommentInput, reasoning string) {
	t.mu.Lock()
	t.seq++
	n := t.seq
	t.mu.Unlock()
	t.pending.Add(1)
	go func() {
		defer t.pending.Done()
		t.run.anchorSlots <- struct{}{}
		defer func() { <-t.run.anchorSlots }()
		p := t.commentPath(it.Path)
		loc, _ := t.resolve(ctx, p, it.ExistingCode, t.relocate)
		c := t.comment(ctx, it, loc, reasoning)
		t.mu.Lock()
		t.comments = append(t.comments, indexed{n: n, c: c})
		t.mu.Unlock()
	}()
}

// commentPath is the path a comment is filed on.
func (t *task) commentPath(p string) string {
	if !t.inChangeSet(p) {
		p = cleanPath(p)
	}
	if p == "" {
		p = t.sess.File
	}
	return p
}

// resolve anchors code on path p, with every place it matched when there
// were several (anchor.ResolveAll); relocate nil skips the relocation step.
// With relocate, the fuzzy step is skipped: the call-time pass tried it.
func (t *task) resolve(ctx context.Context, p, code string, relocate func(context.Context, anchor.Query) (string, bool)) (review.Location, []int) {
	newFile := func(path string) ([]string, bool) { return t.run.newFile(ctx, path) }
	loc, places := anchor.ResolveAll(ctx, anchor.Query{Path: p, Code: code}, t.run.in.Changes,
		anchor.Options{NewFile: newFile, Relocate: relocate, NoFuzzy: relocate != nil})
	if loc.Path == "" {
		loc.Path = p
	}
	return loc, places
}

// comment builds the comment of an item placed at loc.
func (t *task) comment(ctx context.Context, it tools.CommentInput, loc review.Location, reasoning string) review.Comment {
	cat := review.ParseCategory(it.Category)
	thinking := it.Thinking
	if thinking == "" {
		thinking = reasoning
	}
	code, quoted := t.shownCode(ctx, it.ExistingCode, loc)
	c := review.Comment{Location: loc, Content: strings.TrimSpace(it.Content), ExistingCode: code, QuotedCode: quoted,
		Suggestion: it.Suggestion, Category: cat, Severity: review.ParseSeverity(it.Severity), Thinking: thinking,
		Fingerprint: review.Fingerprint(loc.Path, cat, code)}
	if t.run.in.Rules != nil {
		c.RuleID, _ = t.run.in.Rules(loc.Path)
	}
	return c
}

// shownCode is the code a comment shows: the file's lines at loc when the
// quote was placed by approximation (the fuzzy step, or the model's
// re-quote), with the model's quote as quoted when it differs; the quote
// itself otherwise, where it matched as sent.
func (t *task) shownCode(ctx context.Context, quote string, loc review.Location) (code, quoted string) {
	if loc.Method != review.MethodFuzzy && loc.Method != review.MethodRelocation {
		return quote, ""
	}
	text, ok := t.text(ctx, loc)
	if !ok || text == strings.TrimRight(quote, "\n") {
		return quote, ""
	}
	return text, quote
}

// text is the lines loc covers (anchor.ChangeSet.Text): from the hunks,
// else, on the new side, from the whole new file.
func (t *task) text(ctx context.Context, loc review.Location) (string, bool) {
	var whole []string
	if loc.Side == review.SideNew {
		whole, _ = t.run.newFile(ctx, loc.Path)
	}
	return t.run.in.Changes.Text(loc, whole)
}

// inChangeSet reports whether p names a changed file exactly as given:
// such a path is kept, since `\` is a valid character in a git path and
// cleanPath would read it as a separator.
func (t *task) inChangeSet(p string) bool {
	if t.run.in.Changes == nil || p == "" {
		return false
	}
	_, ok := t.run.in.Changes.File(p)
	return ok
}

// cleanPath normalises a model-given path ("./a/b.go", "a\\b.go",
// "/a/b.go" → "a/b.go"), rooted so it cannot leave the repository.
func cleanPath(p string) string {
	p = strings.ReplaceAll(strings.TrimSpace(p), "\\", "/")
	p = strings.TrimLeft(path.Clean("/"+p), "/")
	if p == "" || p == "." {
		return ""
	}
	return p
}

// collected returns the comments anchored since the last call, in
// arrival order, and forgets them: each round filters only its own.
func (t *task) collected() []review.Comment {
	t.mu.Lock()
	defer t.mu.Unlock()
	sort.Slice(t.comments, func(a, b int) bool { return t.comments[a].n < t.comments[b].n })
	out := make([]review.Comment, len(t.comments))
	for i, c := range t.comments {
		out[i] = c.c
	}
	t.comments = nil
	return out
}

// relocate is the one relocation request for an unplaced comment: the
// model re-quotes the snippet from this file's diff.
func (t *task) relocate(ctx context.Context, q anchor.Query) (string, bool) {
	diff, ok := t.run.diffs[q.Path]
	if !ok || strings.TrimSpace(q.Code) == "" {
		return "", false
	}
	c := &conv{}
	c.system(t.run.relocSystem)
	c.user(t.a.prompts.render(tmplRelocation, relocData{Path: q.Path, Diff: compactDiff(diff), Code: q.Code}))
	resp, err := t.send(ctx, openai.ChatCompletionRequest{Messages: c.msgs}, c.total)
	if err != nil || len(resp.Choices) == 0 {
		return "", false
	}
	return fenced(resp.Choices[0].Message.Content)
}

// fenced extracts the first fenced code block of an answer.
func fenced(s string) (string, bool) {
	_, rest, ok := strings.Cut(s, "```")
	if !ok {
		return "", false
	}
	if nl := strings.IndexByte(rest, '\n'); nl >= 0 {
		rest = rest[nl+1:] // drop the info string
	}
	body, _, _ := strings.Cut(rest, "```")
	body = strings.TrimRight(body, "\n")
	return body, strings.TrimSpace(body) != ""
}
