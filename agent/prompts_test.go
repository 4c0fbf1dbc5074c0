package agent

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tiktoken-go/tokenizer"

	"github.com/ocr-ci/ocr/anchor"
	"github.com/ocr-ci/ocr/anchor/udiff"
	"github.com/ocr-ci/ocr/internal/testkit/golden"
	"github.com/ocr-ci/ocr/review"
	"github.com/ocr-ci/ocr/tools"
)

// promptRun builds a run over testdata/prompt.diff reviewing svc/*.
func promptRun(t testing.TB) (*run, *task) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "prompt.diff"))
	if err != nil {
		t.Fatal(err)
	}
	files, err := udiff.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	diffs := splitDiff(raw)
	in := Input{Changes: anchor.NewChangeSet(files), Diffs: diffs, Background: "Division was a stub.",
		Language: "English", Files: []File{{Path: "svc/calc.go", Diff: diffs["svc/calc.go"]}, {Path: "svc/calc_test.go", Diff: diffs["svc/calc_test.go"]}},
		Rules: func(p string) (string, string) {
			if strings.HasSuffix(p, "_test.go") {
				return "ocr/go-test", "Tests must fail on wrong results."
			}
			return "ocr/go", "Check errors, nil and zero values."
		}}
	a := New(Config{}, nil, tools.Default())
	r := a.newRun(in)
	return r, &task{a: a, run: r, files: in.Files}
}

func renderedPrompts(t testing.TB) map[string]string {
	r, tk := promptRun(t)
	p := r.a.prompts
	data := tk.promptData()
	planned := data
	planned.Plan = "Summary: Div now divides.\nRisks: 1. [high] svc/calc.go: division by zero"
	planning := data
	planning.Planning = true
	bare := mainData{Files: data.Files}
	second := planned
	second.Round, second.Confirmed = 2, confirmed([]review.Comment{{
		Location: review.Location{Path: "svc/calc.go", Side: review.SideNew, StartLine: 5, EndLine: 5},
		Category: review.CategoryBug, Severity: review.SeverityHigh,
		Content: "Division by zero panics when b is 0.\n\nCheck b first."}})
	secondNone := mainData{Files: data.Files[:1], Round: 2}
	return map[string]string{
		"system":           r.system.text,
		"plan_system":      p.render(tmplPlan, nil),
		"plan_user":        p.render(tmplMain, planning),
		"main_user":        p.render(tmplMain, planned),
		"main_user_bare":   p.render(tmplMain, bare),
		"round2_user":      p.render(tmplMain, second),
		"round2_user_none": p.render(tmplMain, secondNone),
		"nudge":            p.render(tmplNudge, nil),
		"final":            p.render(tmplFinal, nil),
		"plan_final":       p.render(tmplPlanFinal, nil),
		"relocate_system":  r.relocSystem.text,
		"relocate_user":    p.render(tmplRelocation, relocData{Path: "svc/calc.go", Diff: compactDiff(r.diffs["svc/calc.go"]), Code: "q := a / b"}),
	}
}

func TestPromptGolden(t *testing.T) {
	for name, got := range renderedPrompts(t) {
		t.Run(name, func(t *testing.T) {
			golden.CheckString(t, filepath.Join("testdata", "prompt_"+name+".golden"), got+"\n")
		})
	}
}

// Overhead is the fixed part of each kind of request, in cl100k tokens:
// system prompt, tool schemas and the template text around the diffs.
type Overhead struct{ Plan, Main, Relocation int }

func promptOverhead(t testing.TB) Overhead {
	enc, err := tokenizer.Get(tokenizer.Cl100kBase)
	if err != nil {
		t.Fatal(err)
	}
	count := func(parts ...string) int {
		n := 0
		for _, s := range parts {
			k, _ := enc.Count(s)
			n += k
		}
		return n
	}
	schema := func(ts any) string { b, _ := json.Marshal(ts); return string(b) }
	r, _ := promptRun(t)
	p := r.a.prompts
	frame := p.render(tmplMain, mainData{Files: []promptFile{{Path: "x"}}})
	return Overhead{
		Plan:       count(r.planSystem.text, schema(r.planTools.tools), frame, "Write the review plan"),
		Main:       count(r.system.text, schema(r.mainTools.tools), frame),
		Relocation: count(r.relocSystem.text, p.render(tmplRelocation, relocData{Path: "x"})),
	}
}

func TestPromptOverhead(t *testing.T) {
	o := promptOverhead(t)
	t.Logf("prompt overhead (cl100k tokens): plan %d, main %d, relocation %d", o.Plan, o.Main, o.Relocation)
	if o.Main >= 1500 {
		t.Errorf("main-phase overhead = %d tokens, want < 1500", o.Main)
	}
}
