package tools

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// List writes the registry in effect, one tool per line: name, the phases
// that offer it, and its description (what `ocr tools list` prints).
func List(w io.Writer, r *Registry) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tPHASES\tDESCRIPTION")
	for _, e := range r.entries {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", e.Name, phases(e), oneLine(e.Definition.Description))
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
