package agent

import (
	"embed"
	"fmt"
	"strings"
	"text/template"

	"github.com/ocr-ci/ocr/agent/promptname"
)

//go:embed prompts/system.tmpl prompts/plan.tmpl prompts/main.tmpl prompts/nudge.tmpl prompts/final.tmpl prompts/plan_final.tmpl prompts/relocate_system.tmpl prompts/relocate.tmpl prompts/round.tmpl prompts/choose_system.tmpl prompts/choose.tmpl
var promptFS embed.FS

// Template names.
const (
	tmplSystem     = "system.tmpl"
	tmplPlan       = "plan.tmpl"
	tmplMain       = "main.tmpl"
	tmplNudge      = "nudge.tmpl"
	tmplFinal      = "final.tmpl"
	tmplPlanFinal  = "plan_final.tmpl"
	tmplRelocSys   = "relocate_system.tmpl"
	tmplRelocation = "relocate.tmpl"
	tmplRound      = "round.tmpl" // included by main.tmpl in later rounds
	tmplChooseSys  = "choose_system.tmpl"
	tmplChoose     = "choose.tmpl"
)

// maxOtherFiles bounds the <other_changed_files> list of one prompt.
const maxOtherFiles = 60

// prompts renders the embedded templates.
type prompts struct{ t *template.Template }

func loadPrompts() (prompts, error) {
	t, err := template.New("").Funcs(template.FuncMap{"join": strings.Join, "name": promptname.Name, "names": promptname.Names}).ParseFS(promptFS, "prompts/*.tmpl")
	if err != nil {
		return prompts{}, fmt.Errorf("embedded prompts do not parse: %w", err)
	}
	return prompts{t: t}, nil
}

// render executes one template; the data is ours, so a failure is a bug
// that the golden tests catch, and it is reported rather than hidden.
func (p prompts) render(name string, data any) string {
	var b strings.Builder
	if err := p.t.ExecuteTemplate(&b, name, data); err != nil {
		return fmt.Sprintf("(prompt %s failed to render: %v)", name, err)
	}
	return strings.TrimSpace(b.String())
}

// systemData fills system.tmpl.
type systemData struct{ Language string }

// mainData fills main.tmpl, the user message of the plan and main phases.
type mainData struct {
	Others     []string
	Files      []promptFile
	Rules      []promptRule
	Background string
	Plan       string
	Planning   bool
	// Round is the main round (0 and 1: the first); later rounds are told
	// the Confirmed findings of the earlier ones.
	Round     int
	Confirmed []promptFinding
}

// promptFile is one file under review.
type promptFile struct{ Path, Diff string }

// promptRule is a review rule and the group's files it applies to (Paths is
// empty when it applies to all of them).
type promptRule struct {
	Paths []string
	Text  string
}

// relocData fills relocate.tmpl.
type relocData struct{ Path, Diff, Code string }
