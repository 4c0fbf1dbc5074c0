package agent

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/ocr-ci/ocr/anchor"
	"github.com/ocr-ci/ocr/tools"
	openai "github.com/sashabaranov/go-openai"
)

// run is what the groups of one Review share.
type run struct {
	a           *Agent
	in          Input
	diffs       map[string]string
	budget      *budget
	anchorSlots chan struct{}
	system      string
	relocSystem string
	planTools   []openai.Tool
	mainTools   []openai.Tool
	finalTools  []openai.Tool

	outMu sync.Mutex
	out   io.Writer

	fileMu sync.Mutex
	files  map[string][]string
}

func (a *Agent) newRun(ctx context.Context, in Input) *run {
	r := &run{a: a, in: in, diffs: in.Diffs, budget: &budget{limit: a.cfg.MaxTokensBudget},
		anchorSlots: make(chan struct{}, a.cfg.Concurrency), out: a.cfg.Progress, files: map[string][]string{}}
	if r.diffs == nil {
		r.diffs = make(map[string]string, len(in.Files))
		for _, f := range in.Files {
			r.diffs[f.Path] = f.Diff
		}
	}
	if r.in.Changes == nil {
		r.in.Changes = anchor.NewChangeSet(nil)
	}
	lang := in.Language
	if strings.TrimSpace(lang) == "" {
		lang = "English"
	}
	r.system = a.prompts.render(tmplSystem, systemData{Language: lang})
	r.relocSystem = a.prompts.render(tmplRelocSys, nil)
	r.planTools = toOpenAI(a.reg.Entries(tools.PhasePlan))
	r.mainTools = toOpenAI(a.reg.Entries(tools.PhaseMain))
	for _, t := range r.mainTools {
		if n := t.Function.Name; n == "code_comment" || n == "task_done" {
			r.finalTools = append(r.finalTools, t)
		}
	}
	return r
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
func (r *run) newFile(path string) ([]string, bool) {
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
	b, err := r.in.Source.ReadFile(context.Background(), path)
	var lines []string
	if err == nil {
		lines = strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	}
	r.files[path] = lines
	return lines, lines != nil
}

// progress writes one line to the progress writer.
func (r *run) progress(format string, args ...any) {
	r.outMu.Lock()
	defer r.outMu.Unlock()
	fmt.Fprintf(r.out, "ocr: "+format+"\n", args...)
}
