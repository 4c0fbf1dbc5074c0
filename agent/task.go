package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/ocr-ci/ocr/internal/infra/llm"
	"github.com/ocr-ci/ocr/review"
	"github.com/ocr-ci/ocr/tools"
)

// task is the review of one group.
type task struct {
	a     *Agent // run.a, kept short for the many uses
	run   *run
	files []File
	sess  *tools.Session
	// pass numbers the group's independent reviews from 0; a later pass
	// sends its own seed.
	pass int
	// voting leaves the filter to the vote over every pass (Config.Passes).
	voting bool

	mu       sync.Mutex
	usage    review.Usage
	pending  sync.WaitGroup
	comments []indexed
	seq      int
	calls    int // code_comment calls placed so far
	// halted is set when this group's failure stopped the run.
	halted bool
}

// groupResult is the outcome of one group.
type groupResult struct {
	reason   review.Reason
	detail   string
	comments []review.Comment
	usage    review.Usage
	planned  bool
	// rounds counts the main rounds that ended with task_done.
	rounds  int
	dropped int
	// files: each file's outcome when split to fit the window (else nil).
	files map[string]fileOutcome
	// outvoted counts the findings the vote over the passes left out.
	outvoted int
}

func (t *task) addUsage(u review.Usage) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.usage = t.usage.Add(u)
}

// review runs the plan phase when the group is large, then the main
// rounds, all under the group's timeout.
func (t *task) review(ctx context.Context) groupResult {
	ctx, cancel := context.WithTimeoutCause(ctx, t.a.cfg.GroupTimeout, errGroupTimeout)
	defer cancel()
	var res groupResult
	data := t.promptData()
	var out loopResult
	if t.needsPlan() {
		res.planned = true
		data.Plan, out = t.plan(ctx, data)
	}
	if out.err != nil { // a provider, budget or timeout failure of the plan ends the group
		res.reason, res.detail = out.reason, out.detail
	} else {
		res.reason, res.detail = t.round(ctx, data, &res)
	}
	if res.reason == "" {
		t.moreRounds(ctx, data, &res)
	}
	t.mu.Lock()
	res.usage = t.usage
	t.mu.Unlock()
	return res
}

// needsPlan applies the plan thresholds: one file with 50+ changed lines,
// or 100+ in the group.
func (t *task) needsPlan() bool {
	if t.a.cfg.NoPlan {
		return false
	}
	total := 0
	for _, f := range t.files {
		n := t.run.churn(f.Path)
		if n >= filePlanLines {
			return true
		}
		total += n
	}
	return total >= groupPlanLines
}

// plan runs the read-only plan loop and returns its plan. A model that
// does not produce one leaves "" (the main phase runs without a plan); a
// request failure is returned in the result.
func (t *task) plan(ctx context.Context, data mainData) (string, loopResult) {
	data.Planning = true
	c := &conv{}
	c.system(t.run.planSystem)
	c.user(t.a.prompts.render(tmplMain, data))
	r := t.loop(ctx, c, loopSpec{phase: tools.PhasePlan, tools: t.run.planTools, rounds: planRounds - 1,
		final: t.run.planFinal, textEnds: true, nudge: t.run.planFinal})
	if !r.done && ctx.Err() == nil {
		t.run.progress("plan for %s failed (%s); reviewing without a plan", t.label(), r.reason)
		return "", r
	}
	text := strings.TrimSpace(r.text)
	if len(text) > maxPlanChars {
		text = text[:maxPlanChars] + "\n…"
	}
	return text, r
}

// main runs the main tool loop.
func (t *task) main(ctx context.Context, data mainData) loopResult {
	c := &conv{}
	c.system(t.run.system)
	c.user(t.a.prompts.render(tmplMain, data))
	return t.loop(ctx, c, loopSpec{phase: tools.PhaseMain, tools: t.run.mainTools, rounds: t.a.cfg.MaxRounds,
		final: t.run.final, finalTools: t.run.finalTools, nudge: t.run.nudge})
}

// filtered runs the configured filter and returns the comments it keeps
// and how many it dropped; on error it keeps every comment.
func (t *task) filtered(ctx context.Context, cs []review.Comment) ([]review.Comment, int) {
	if t.a.cfg.Filter == nil || len(cs) == 0 || t.voting {
		return cs, 0
	}
	done := t.run.meter.request()
	kept, u, err := t.a.cfg.Filter(llm.WithScope(ctx, t.label()), t.groupDiff(), cs)
	done(u)
	t.run.budget.Settle(0, u)
	t.addUsage(u)
	switch {
	case errors.Is(err, ErrNoDrops):
		t.run.status("filter for %s: kept all %s, none named to drop", t.label(), plural(len(cs), "comment"))
		return cs, 0
	case err != nil:
		t.stopIfDefinitive(err)
		t.run.progress("filter for %s could not run (%v); keeping all %d comment(s)", t.label(), err, len(cs))
		return cs, 0
	}
	return kept, len(cs) - len(kept)
}

func (t *task) groupDiff() string {
	var b strings.Builder
	for _, f := range t.files {
		fmt.Fprintf(&b, "<file path=%q>\n%s</file>\n", f.Path, f.Diff)
	}
	return b.String()
}

// label names the group in progress lines.
func (t *task) label() string {
	if len(t.files) == 1 {
		return t.files[0].Path
	}
	return fmt.Sprintf("%s (+%d file(s))", t.files[0].Path, len(t.files)-1)
}
