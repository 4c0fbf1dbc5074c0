package agent

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"

	openai "github.com/sashabaranov/go-openai"

	"github.com/ocr-ci/ocr/agent/budget"
	"github.com/ocr-ci/ocr/agent/window"
	"github.com/ocr-ci/ocr/anchor"
	"github.com/ocr-ci/ocr/internal/infra/logtext"
	"github.com/ocr-ci/ocr/tools"
)

// run is what the groups of one Review share.
type run struct {
	a           *Agent
	in          Input
	diffs       map[string]string
	budget      *budget.Budget
	anchorSlots chan struct{}
	// The fixed texts and tool lists of the requests, counted once.
	system, planSystem, relocSystem, chooseSystem counted
	final, nudge, planFinal                       string
	planTools, mainTools, finalTools              toolSet

	meter  *meter
	halter *halter
	window *window.Window

	outMu sync.Mutex
	out   io.Writer

	fileMu sync.Mutex
	files  map[string][]string
}

func (a *Agent) newRun(in Input) *run {
	r := &run{a: a, in: in, diffs: in.Diffs, budget: budget.New(a.cfg.MaxTokensBudget, a.cfg.MaxCost, a.cfg.Prices),
		anchorSlots: make(chan struct{}, a.cfg.Concurrency), out: a.cfg.Progress, files: map[string][]string{},
		window: window.New(a.cfg.ContextTokens)}
	if r.diffs == nil {
		r.diffs = make(map[string]string, len(in.Files))
		for _, f := range in.Files {
			r.diffs[f.Path] = f.Diff
		}
	}
	if r.in.Changes == nil {
		r.in.Changes = anchor.NewChangeSet(nil)
	}
	r.fixed()
	return r
}

// fixed renders the texts that do not depend on the group and counts the
// tokens of the system prompts and tool schemas once, with cl100k: they are
// resent with every request, so the budget's estimate should be close.
func (r *run) fixed() {
	count := tokenCounter()
	lang := r.in.Language
	if strings.TrimSpace(lang) == "" {
		lang = "English"
	}
	p := r.a.prompts
	r.system = newCounted(p.render(tmplSystem, systemData{Language: lang}), count)
	r.planSystem = newCounted(p.render(tmplPlan, nil), count)
	r.relocSystem = newCounted(p.render(tmplRelocSys, nil), count)
	r.chooseSystem = newCounted(p.render(tmplChooseSys, nil), count)
	r.final, r.nudge, r.planFinal = p.render(tmplFinal, nil), p.render(tmplNudge, nil), p.render(tmplPlanFinal, nil)
	main := toOpenAI(r.a.reg.Entries(tools.PhaseMain))
	var final []openai.Tool
	for _, t := range main {
		if n := t.Function.Name; n == "code_comment" || n == "task_done" {
			final = append(final, t)
		}
	}
	r.planTools = newToolSet(toOpenAI(r.a.reg.Entries(tools.PhasePlan)), count)
	r.mainTools, r.finalTools = newToolSet(main, count), newToolSet(final, count)
}

// toOpenAI converts registry entries to the request's tool list.
func toOpenAI(es []tools.Entry) []openai.Tool {
	out := make([]openai.Tool, 0, len(es))
	for _, e := range es {
		out = append(out, openai.Tool{Type: openai.ToolTypeFunction, Function: &openai.FunctionDefinition{
			Name: e.Definition.Name, Description: e.Definition.Description, Parameters: e.Definition.Parameters}})
	}
	return out
}

// churn is a path's changed lines.
func (r *run) churn(path string) int {
	if f, ok := r.in.Changes.File(path); ok {
		return f.Additions + f.Deletions
	}
	return strings.Count(r.diffs[path], "\n+") + strings.Count(r.diffs[path], "\n-")
}

// newFile serves anchor's whole-file step: the new file's lines, read once
// per path through the tools' Source, only for files of the change set.
// A read that fails because ctx ended is not remembered: another group
// with time left reads the file again.
func (r *run) newFile(ctx context.Context, path string) ([]string, bool) {
	if r.in.Source == nil {
		return nil, false
	}
	if f, ok := r.in.Changes.File(path); !ok || f.NewPath != path {
		return nil, false
	}
	r.fileMu.Lock()
	defer r.fileMu.Unlock()
	if lines, ok := r.files[path]; ok {
		return lines, lines != nil
	}
	b, err := r.in.Source.ReadFile(ctx, path)
	if err != nil && ctx.Err() != nil {
		return nil, false
	}
	var lines []string
	if err == nil {
		lines = strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	}
	r.files[path] = lines
	return lines, lines != nil
}

// progress writes one line to the progress writer. The arguments carry
// untrusted text (paths from the diff, provider and model messages): line
// breaks in them are shown escaped, so nothing they hold can start a line
// of its own, which in GitHub Actions could be a workflow command.
func (r *run) progress(format string, args ...any) {
	line := logtext.OneLine(fmt.Sprintf(format, args...))
	r.outMu.Lock()
	defer r.outMu.Unlock()
	// Progress is best effort: a log line that cannot be written must not
	// stop the review.
	_, _ = fmt.Fprintf(r.out, "ocr: %s\n", line)
}
