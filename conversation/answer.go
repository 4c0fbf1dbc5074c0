package conversation

import (
	"context"
	"fmt"

	"github.com/ocr-ci/ocr/agent"
	"github.com/ocr-ci/ocr/reporters/posting"
	"github.com/ocr-ci/ocr/review"
)

// answer asks the model and posts its answer where the question was
// asked. A provider failure is said in the thread and exits 3.
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
	o := h.failed(h.post(ctx, ev, answerBody(out.Text, quote)))
	o.Usage = out.Usage
	return o
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
