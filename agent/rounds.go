package agent

import (
	"context"
	"strings"
	"unicode/utf8"

	"github.com/ocr-ci/ocr/review"
)

// Bounds of the confirmed findings a later round is told.
const (
	maxConfirmed      = 40
	maxConfirmedChars = 200
)

// moreRounds runs the rounds after the first (--effort high), each told
// the findings confirmed so far. The group is already reviewed, so a round
// that ends early is reported on the progress writer and ends the rounds.
func (t *task) moreRounds(ctx context.Context, data mainData, res *groupResult) {
	for n := 2; n <= t.a.cfg.Rounds; n++ {
		data.Round, data.Confirmed = n, confirmed(res.comments)
		if reason, detail := t.round(ctx, data, res); reason != "" {
			t.run.progress("round %d for %s ended early (%s: %s); the earlier rounds' review stands", n, t.label(), reason, detail)
			return
		}
	}
}

// round runs one main round, waits for the anchoring of its comments and
// filters them under the group's context; it adds them to res and returns
// the round's failure reason ("" when it ended with task_done).
func (t *task) round(ctx context.Context, data mainData, res *groupResult) (reason review.Reason, detail string) {
	out := t.main(ctx, data)
	t.pending.Wait()
	kept, dropped := t.filtered(ctx, t.collected())
	res.comments = append(res.comments, kept...)
	res.dropped += dropped
	if out.done && out.failed {
		return review.ReasonFailed, "the model ended the task with task_done FAILED"
	}
	if out.done {
		res.rounds++
	}
	return out.reason, out.detail
}

// promptFinding is a confirmed finding as a later round's prompt shows it.
type promptFinding struct{ Where, Category, Severity, Summary string }

// confirmed lists the findings of the earlier rounds for the next one:
// where, kind and the first line of the text, at most maxConfirmed.
func confirmed(cs []review.Comment) []promptFinding {
	out := make([]promptFinding, 0, min(len(cs), maxConfirmed))
	for _, c := range cs[:min(len(cs), maxConfirmed)] {
		out = append(out, promptFinding{Where: where(c.Location), Category: string(c.Category),
			Severity: string(c.Severity), Summary: firstLine(c.Content, maxConfirmedChars)})
	}
	return out
}

// firstLine is the first non-empty line of s, cut to at most n bytes on a
// rune boundary.
func firstLine(s string, n int) string {
	for line := range strings.Lines(s) {
		if line = strings.TrimSpace(line); line != "" {
			s = line
			break
		}
	}
	s = strings.TrimSpace(s)
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
