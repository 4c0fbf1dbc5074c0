package agent

import (
	"context"
	"errors"
	"fmt"

	"github.com/ocr-ci/ocr/agent/window"
	"github.com/ocr-ci/ocr/review"
	"github.com/ocr-ci/ocr/tools"
)

// errOverContext: refused as over the window, and shortening cannot help.
var errOverContext = errors.New("the endpoint refused the request as longer than its context window, and shortening old tool outputs cannot make it fit")

// overContext reports an over-context refusal and learns its window for
// the run, saying so once.
func (r *run) overContext(err error, label string) bool {
	w, ok := window.Refused(err)
	if ok && r.window.Learn(w) {
		r.progress("%s: the endpoint's context window is %d tokens (from its refusal); requests are kept under it from now on, larger groups are split (set OCR_LLM_CONTEXT=%d to skip the refused request)",
			label, w, w)
	}
	return ok
}

// askWithin sends the conversation under the window; a refusal as over the
// window shortens the oldest tool outputs and sends it again once, never
// whole: when nothing can be shortened the group ends (errOverContext).
func (t *task) askWithin(c *conv, offered toolSet, send func() (bool, error)) error {
	w, most := t.run.window, t.a.cfg.MaxCompletionTokens
	for retried := false; ; retried = true {
		if limit := w.PromptLimit(offered.tokens, most); !c.fit(limit) {
			return tooLarge(c.total, limit, w.Size())
		}
		before, reserve := c.total, w.Completion(most)
		ok, err := send()
		if ok || retried || !t.run.overContext(err, t.label()) {
			return err
		}
		// Sent again only changed: shorter, or asking for a shorter answer
		// that the smaller window leaves room for.
		fits := c.fit(w.PromptLimit(offered.tokens, most))
		if !fits || (c.total >= before && w.Completion(most) >= reserve) {
			return errOverContext
		}
	}
}

// tooLarge is errTooLarge with the figures a user needs: the prompt's
// estimated size, the room for it and the window it is taken from.
func tooLarge(tokens, limit, window int) error {
	const what = "(OCR_LLM_CONTEXT sets the window; give the model's real one, or review fewer files at once)"
	if limit <= 0 {
		return fmt.Errorf("%w: the tools and the room kept for the answer alone fill a context window of %d tokens %s", errTooLarge, window, what)
	}
	return fmt.Errorf("%w: about %d tokens, over the %d that a context window of %d tokens leaves after the tools and the answer %s",
		errTooLarge, tokens, limit, window, what)
}

// split reviews the halves of a group that did not fit the window, each
// on its own (halved again if need be), in t's pass, and merges their
// results: the files of a half that fails are not reviewed with its reason.
func (r *run) split(ctx context.Context, t *task, res groupResult) groupResult {
	files := t.files
	if res.reason != review.ReasonTooLarge || len(files) < 2 || ctx.Err() != nil {
		return res
	}
	mid := len(files) / 2
	r.progress("%s (+%d file(s)) does not fit the context window of %d tokens: reviewing it as two groups of %d and %d file(s)",
		files[0].Path, len(files)-1, r.window.Size(), mid, len(files)-mid)
	out := groupResult{usage: res.usage, files: map[string]fileOutcome{}}
	for _, half := range [][]File{files[:mid], files[mid:]} {
		h := &task{a: t.a, run: r, files: half, pass: t.pass, voting: t.voting,
			sess: &tools.Session{Source: r.in.Source, Diffs: r.diffs, File: half[0].Path}}
		out.merge(half, r.split(ctx, h, h.review(ctx)))
	}
	return out
}

// fileOutcome is one file's reason after a split ("" reviewed).
type fileOutcome struct {
	reason review.Reason
	detail string
}

// merge adds a half's result to a split group's.
func (g *groupResult) merge(files []File, sub groupResult) {
	g.comments = append(g.comments, sub.comments...)
	g.usage = g.usage.Add(sub.usage)
	g.dropped += sub.dropped
	g.planned = g.planned || sub.planned
	g.rounds = max(g.rounds, sub.rounds)
	for _, f := range files {
		o, ok := sub.files[f.Path]
		if !ok {
			o = fileOutcome{reason: sub.reason, detail: sub.detail}
		}
		g.files[f.Path] = o
		if o.reason != "" && g.reason == "" {
			g.reason, g.detail = o.reason, o.detail
		}
	}
}
