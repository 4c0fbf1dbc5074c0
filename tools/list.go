package tools

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// List writes the registry in effect (what `ocr tools list` prints): one
// line per tool with the phases that offer it and its description, then
// one indented line per argument (and per field of an array of objects)
// with its type, whether it is required, its valid values and its
// description, as the model is offered them.
func List(w io.Writer, r *Registry) error {
	var b strings.Builder
	b.WriteString("NAME\tPHASES / TYPE\tDESCRIPTION\n")
	for _, e := range r.entries {
		fmt.Fprintf(&b, "%s\t%s\t%s\n", e.Name, phases(e), oneLine(e.Definition.Description))
		for _, name := range e.params.Names() {
			fmt.Fprintf(&b, "  %s\t%s\t%s\n", name, e.params.TypeOf(name), e.params.About(name))
			for _, f := range e.params.Fields(name) {
				fmt.Fprintf(&b, "    %s[].%s\t%s\t%s\n", name, f.Name, f.Type, oneLine(f.About))
			}
		}
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	if _, err := io.WriteString(tw, b.String()); err != nil {
		return err
	}
	return tw.Flush()
}

// phases names the phases that offer e.
func phases(e Entry) string {
	var p []string
	if e.PlanTask {
		p = append(p, "plan")
	}
	if e.MainTask {
		p = append(p, "main")
	}
	if len(p) == 0 {
		return "-"
	}
	return strings.Join(p, ",")
}

// oneLine folds whitespace so a description stays on its row.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
