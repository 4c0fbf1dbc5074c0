package conversation

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/ocr-ci/ocr/agent"
	"github.com/ocr-ci/ocr/review"
	"github.com/ocr-ci/ocr/tools"
)

// Material is what an answer reads: loaded only when the model is about
// to be asked (it costs a checkout's history and the diff).
type Material struct {
	// Ask is the agent's Ask (agent.New(...).Ask).
	Ask func(ctx context.Context, in agent.AskInput) agent.AskOutput
	// Source and Diffs are the repository at the head and the change.
	Source tools.Source
	Diffs  map[string]string
	// Files lists the changed files, one line each ("M path (+3/-1)").
	Files []string
}

// Handler answers one comment event.
type Handler struct {
	Forge    Forge
	Settings Settings
	// ForkSettings replace Settings' caps on a fork's pull request (its
	// lower caps); zero caps keep Settings'.
	ForkSettings Settings
	// Language is the language of answers (default English).
	Language string
	// Material loads what an answer needs; fork is the pull request's.
	Material func(ctx context.Context, fork bool) (*Material, error)
	// Logf receives one line per decision.
	Logf func(format string, args ...any)
	// Now dates acknowledgements; nil: the clock.
	Now func() time.Time
	// Record receives every answer the model produced, as Markdown (the
	// step summary); nil: the log only.
	Record func(markdown string)
}

// Outcome is what a comment event came to.
type Outcome struct {
	// Review asks the caller to run a full review now (/ocr review).
	Review bool
	// Err is why the event could not be handled in full (nil: answered,
	// or nothing to do); it is logged already. The caller maps it to an
	// exit code (runner/exit.go: a configuration error is 2, the rest 3).
	Err   error
	Usage review.Usage
}

// Handle answers ev: it triages it, checks the author, and runs the command
// or answers the question. Every failure after the author is trusted is
// said in the thread too, in one short line.
func (h *Handler) Handle(ctx context.Context, ev Event) Outcome {
	req, why := Triage(ev, h.Settings)
	if why != "" {
		h.logf("nothing to do: %s", why)
		return Outcome{}
	}
	ok, pr, err := h.admit(ctx, ev)
	if err != nil || !ok {
		return h.failed(err)
	}
	switch {
	case req.Command && req.Verb == VerbReview && (pr.Closed || pr.Merged):
		h.logf("%s asked for a review of a %s pull request: not reviewed", ev.Comment.Author.Login, closedWord(pr))
		return h.failed(h.post(ctx, ev, closedText(closedWord(pr))))
	case req.Command && req.Verb == VerbReview:
		h.logf("%s asked for a review", ev.Comment.Author.Login)
		return Outcome{Review: true}
	case req.Command:
		return h.failed(h.command(ctx, ev, req))
	}
	return h.answer(ctx, ev, req, pr)
}

// closedWord is "merged" or "closed".
func closedWord(pr PullRequest) string {
	if pr.Merged {
		return "merged"
	}
	return "closed"
}

// admit lets a trusted human through; ocr's own account never is one. An
// untrusted author gets the fixed reply unless Settings.Silent.
func (h *Handler) admit(ctx context.Context, ev Event) (bool, PullRequest, error) {
	a := ev.Comment.Author
	if own, err := h.Forge.Own(ctx, a); err != nil || own {
		if own {
			h.logf("nothing to do: the comment is by ocr's own account (%s)", a.Login)
		}
		return false, PullRequest{}, err
	}
	pr, err := h.Forge.PullRequest(ctx)
	if err != nil {
		return false, pr, err
	}
	g := gate{trust: h.Settings.Trust, prAuthor: pr.Author}
	ok, err := g.trusted(ctx, h.Forge, a)
	if err != nil || ok {
		return ok, pr, err
	}
	if h.Settings.Silent {
		h.logf("not answering %s: not trusted (OCR_CHAT_TRUST %s), OCR_CHAT_UNTRUSTED=silent", a.Login, strings.Join(h.Settings.Trust, ","))
		return false, pr, nil
	}
	told, err := h.toldOutsiders(ctx)
	if err != nil || told {
		h.logf("not answering %s: not trusted (OCR_CHAT_TRUST %s); who may ask was said once on this pull request already",
			a.Login, strings.Join(h.Settings.Trust, ","))
		return false, pr, err
	}
	h.logf("not answering %s: not trusted (OCR_CHAT_TRUST %s); replying who may ask", a.Login, strings.Join(h.Settings.Trust, ","))
	return false, pr, h.post(ctx, ev, untrustedText(h.Settings.Trust))
}

// toldOutsiders reports whether ocr already told an outsider who may ask
// on this pull request (its own outsider marker): it says so once per pull
// request, so outsiders cannot make it comment without bound.
func (h *Handler) toldOutsiders(ctx context.Context) (bool, error) {
	notes, err := h.Forge.Notes(ctx)
	if err != nil {
		return false, err
	}
	for _, n := range notes {
		if lastLine(n.Body) != outsiderMarker {
			continue
		}
		if own, err := h.Forge.Own(ctx, n.Author); err == nil && own {
			return true, nil
		}
	}
	return false, nil
}

// post writes body where ev was written: in its thread, or on the pull
// request.
func (h *Handler) post(ctx context.Context, ev Event, body string) error {
	if ev.Kind == ThreadReply {
		return h.Forge.Reply(ctx, Note{ID: ev.Comment.Root, Thread: ev.Comment.Thread}, body)
	}
	return h.Forge.Comment(ctx, body)
}

// failed is the outcome of err, said in one log line.
func (h *Handler) failed(err error) Outcome {
	if err != nil {
		h.logf("%v", err)
	}
	return Outcome{Err: err}
}

// command runs pause, resume, ignore, help and unknown verbs.
func (h *Handler) command(ctx context.Context, ev Event, req Request) error {
	who := ev.Comment.Author.Login
	switch req.Verb {
	case VerbPause:
		h.logf("%s paused ocr on this pull request", who)
		return h.post(ctx, ev, pauseText(h.Settings.Handle, ackMarker(VerbPause, who, h.now())))
	case VerbResume:
		h.logf("%s resumed ocr on this pull request", who)
		return h.post(ctx, ev, resumeText(ackMarker(VerbResume, who, h.now())))
	case VerbIgnore:
		return h.ignore(ctx, ev, req.Arg)
	case VerbHelp:
		return h.post(ctx, ev, helpText(h.Settings.Handle))
	}
	h.logf("unknown command %q: replying with the help", req.Unknown)
	return h.post(ctx, ev, unknownText(h.Settings.Handle, req.Unknown))
}

// ignore suppresses the finding of ocr's thread on this pull request: the
// reply records its fingerprint, and the thread is resolved.
func (h *Handler) ignore(ctx context.Context, ev Event, reason string) error {
	thread, ours, err := h.thread(ctx, ev)
	if err != nil {
		return err
	}
	fp := ""
	if ours {
		fp, _ = FindingFingerprint(thread[0].Body)
	}
	if fp == "" {
		h.logf("ignore outside a thread of ocr's findings: replying how to use it")
		return h.post(ctx, ev, notOursText(h.Settings.Handle))
	}
	if err := h.post(ctx, ev, ignoredText(fp, thread[0], ev.Comment.Author.Login, reason)); err != nil {
		return err
	}
	h.logf("%s ignored finding %s on this pull request", ev.Comment.Author.Login, fp)
	if err := h.Forge.Resolve(ctx, thread[0]); err != nil {
		return fmt.Errorf("the finding is ignored, but its thread could not be resolved: %w", err)
	}
	return nil
}

// thread returns ev's thread, root first, and whether its root is ocr's
// finding; a comment on the pull request has none.
func (h *Handler) thread(ctx context.Context, ev Event) ([]Note, bool, error) {
	if ev.Kind != ThreadReply {
		return nil, false, nil
	}
	notes, err := h.Forge.Notes(ctx)
	if err != nil {
		return nil, false, err
	}
	var thread []Note
	for _, n := range notes {
		if sameThread(n, ev.Comment) {
			thread = append(thread, n)
		}
	}
	if len(thread) == 0 || (ev.Comment.Thread == "" && thread[0].ID != ev.Comment.Root) {
		return nil, false, errors.New("the thread's first comment is gone (deleted?): nothing to answer in")
	}
	_, marked := FindingFingerprint(thread[0].Body)
	if !marked {
		return thread, false, nil
	}
	ours, err := h.Forge.Own(ctx, thread[0].Author)
	return thread, ours, err
}

// sameThread reports whether n is in c's thread: by the platform's thread
// id when c has one (GitLab), else by the first comment's id.
func sameThread(n, c Note) bool {
	if c.Thread != "" {
		return n.InThread && n.Thread == c.Thread
	}
	return n.InThread && n.Root == c.Root
}

func (h *Handler) now() time.Time {
	if h.Now != nil {
		return h.Now()
	}
	return time.Now()
}

func (h *Handler) logf(format string, args ...any) {
	if h.Logf != nil {
		h.Logf(format, args...)
	}
}
