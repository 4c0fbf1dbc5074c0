package conversation

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/ocr-ci/ocr/agent"
	"github.com/ocr-ci/ocr/reporters/posting"
	"github.com/ocr-ci/ocr/review"
)

// answer asks the model and posts its answer where the question was
// asked. A provider failure is said in the thread and returned (Outcome.Err).
func (h *Handler) answer(ctx context.Context, ev Event, req Request, pr PullRequest) Outcome {
	thread, ours, err := h.thread(ctx, ev)
	if err != nil {
		return h.failed(err)
	}
	if ev.Kind == ThreadReply && !req.Mention && !ours {
		h.logf("nothing to do: a reply without @%s in a thread ocr did not open", h.Settings.Handle)
		return Outcome{}
	}
	m, err := h.Material(ctx, pr.Fork)
	if err != nil {
		return h.failed(h.say(ctx, ev, setupFailedText(), fmt.Errorf("could not prepare the answer: %w", err)))
	}
	in := agent.AskInput{System: systemPrompt(h.Settings.Handle, h.Language), Source: m.Source, Diffs: m.Diffs,
		Label: fmt.Sprintf("comment %d", ev.Comment.ID), MaxRequests: h.Settings.MaxRequests, MaxTokens: h.Settings.MaxTokens}
	if pr.Fork && h.ForkSettings.MaxRequests > 0 {
		in.MaxRequests, in.MaxTokens = h.ForkSettings.MaxRequests, h.ForkSettings.MaxTokens
	}
	quote := ""
	if ev.Kind == ThreadReply {
		in.Prompt = threadPrompt(ctx, m.Source, thread, ours, ev.Comment, req.Question)
	} else {
		notes, err := h.Forge.Notes(ctx)
		if err != nil {
			return h.failed(err)
		}
		in.Prompt, quote = prPrompt(pr, m.Files, h.findings(ctx, notes), ev.Comment, req.Question), req.Question
	}
	out := m.Ask(ctx, in)
	h.logf("answer for %s: %d request(s), %d prompt + %d completion tokens", ev.Comment.Author.Login,
		out.Usage.Requests, out.Usage.PromptTokens, out.Usage.CompletionTokens)
	if out.Reason != "" {
		o := h.failed(h.refuse(ctx, ev, out.Reason, fmt.Errorf("no answer: %s: %s", out.Reason, out.Detail)))
		o.Usage = out.Usage
		return o
	}
	h.record(ev, req.Question, out.Text)
	o := h.failed(h.deliver(ctx, ev, req.Question, answerBody(out.Text, quote), out.Text))
	o.Usage = out.Usage
	return o
}

// deliver posts the answer where the question was asked. When a thread
// cannot be answered (deleted: 404; a rate limit), the answer goes on the
// pull request quoting the question; a locked conversation takes no
// comment at all. The answer is in the log and the summary either way
// (record).
func (h *Handler) deliver(ctx context.Context, ev Event, question, body, answer string) error {
	err := h.post(ctx, ev, body)
	if err == nil || ev.Kind != ThreadReply || errors.Is(err, ErrLocked) {
		return err
	}
	h.logf("could not answer in the thread (%v): posting the answer on the pull request, quoting the question", err)
	if ferr := h.Forge.Comment(ctx, answerBody(answer, question)); ferr != nil {
		return fmt.Errorf("%w; on the pull request neither: %w", err, ferr)
	}
	return nil
}

// record writes the question and the answer the model produced to the log
// and to Record (the step summary): a paid answer is never lost to a
// failed post.
func (h *Handler) record(ev Event, question, answer string) {
	h.logf("the answer to %s (comment %d):\n%s", ev.Comment.Author.Login, ev.Comment.ID, indent(answer))
	if h.Record != nil {
		h.Record(fmt.Sprintf("### ocr's answer to comment %d\n\n", ev.Comment.ID) + answerBody(answer, question) + "\n")
	}
}

// indent puts two spaces before every line, so that no line of model text
// starts a line of the log (a workflow command).
func indent(s string) string {
	return "  " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n  ")
}

// refuse says in the thread that the model could not produce the answer,
// and returns cause for the log and the exit code.
func (h *Handler) refuse(ctx context.Context, ev Event, reason review.Reason, cause error) error {
	return h.say(ctx, ev, failedText(reason), cause)
}

// say posts text where ev was written and returns cause for the log and
// the exit code.
func (h *Handler) say(ctx context.Context, ev Event, text string, cause error) error {
	if err := h.post(ctx, ev, text); err != nil {
		return fmt.Errorf("%w; saying so failed too: %w", cause, err)
	}
	return cause
}

// findings lists ocr's findings on the pull request for a question's
// prompt: the sticky summary's recorded ones, else ocr's open threads.
func (h *Handler) findings(ctx context.Context, notes []Note) []string {
	var out []string
	for _, n := range notes {
		if s, ok := posting.ReadState(n.Body); ok && s.Findings != nil {
			if own, err := h.Forge.Own(ctx, n.Author); err == nil && own {
				for _, c := range s.Findings {
					out = append(out, fmt.Sprintf("%s · %s · %s line %d: %s", c.Severity, c.Category, c.Path, c.StartLine, firstLine(c.Content)))
				}
				return out
			}
		}
	}
	for _, n := range notes {
		if _, ok := FindingFingerprint(n.Body); ok && n.InThread && n.Root == n.ID {
			if own, err := h.Forge.Own(ctx, n.Author); err == nil && own {
				f := findingOf(n)
				out = append(out, fmt.Sprintf("%s · %s · %s: %s", f.Severity, f.Category, f.Where, firstLine(f.Text)))
			}
		}
	}
	return out
}

// FindingFingerprint is the fingerprint of ocr's finding comment (its
// marker); ok is false for any other comment.
func FindingFingerprint(body string) (string, bool) { return posting.MarkerFingerprint(body) }
