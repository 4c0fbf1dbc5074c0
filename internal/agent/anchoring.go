package agent

import (
	"context"
	"path"
	"sort"
	"strings"

	"github.com/ocr-ci/ocr/anchor"
	"github.com/ocr-ci/ocr/review"
	"github.com/ocr-ci/ocr/tools"
	openai "github.com/sashabaranov/go-openai"
)

// indexed keeps a comment's arrival order: anchoring runs in parallel but
// the output order is deterministic.
type indexed struct {
	n int
	c review.Comment
}

// anchor hands a code_comment call's items to the run's worker pool; the
// loop does not wait for them. ctx is the group's: it bounds the whole-file
// reads and the relocation requests.
func (t *task) anchor(ctx context.Context, items []tools.CommentInput, reasoning string) {
	for _, it := range items {
		t.mu.Lock()
		t.seq++
		n := t.seq
		t.mu.Unlock()
		t.pending.Add(1)
		go func() {
			defer t.pending.Done()
			t.run.anchorSlots <- struct{}{}
			defer func() { <-t.run.anchorSlots }()
			c := t.place(ctx, it, reasoning)
			t.mu.Lock()
			t.comments = append(t.comments, indexed{n: n, c: c})
			t.mu.Unlock()
		}()
	}
}

// place anchors one item and builds the comment.
func (t *task) place(ctx context.Context, it tools.CommentInput, reasoning string) review.Comment {
	p := it.Path
	if !t.inChangeSet(p) {
		p = cleanPath(p)
	}
	if p == "" {
		p = t.sess.File
	}
	newFile := func(path string) ([]string, bool) { return t.run.newFile(ctx, path) }
	loc := anchor.Resolve(ctx, anchor.Query{Path: p, Code: it.ExistingCode}, t.run.in.Changes,
		anchor.Options{NewFile: newFile, Relocate: t.relocate})
	if loc.Path == "" {
		loc.Path = p
	}
	cat := review.ParseCategory(it.Category)
	thinking := it.Thinking
	if thinking == "" {
		thinking = reasoning
	}
	c := review.Comment{Location: loc, Content: strings.TrimSpace(it.Content), ExistingCode: it.ExistingCode,
		Suggestion: it.Suggestion, Category: cat, Severity: review.ParseSeverity(it.Severity), Thinking: thinking,
		Fingerprint: review.Fingerprint(loc.Path, cat, it.ExistingCode)}
	if t.run.in.Rules != nil {
		c.RuleID, _ = t.run.in.Rules(loc.Path)
	}
	return c
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
