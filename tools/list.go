package tools

import (
	"fmt"
	"io"
	"slices"
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
		for _, name := range e.params.names {
			fmt.Fprintf(&b, "  %s\t%s\t%s\n", name, argType(e.params, name), argAbout(e.params, name))
			for _, f := range e.params.items[name] {
				fmt.Fprintf(&b, "    %s[].%s\t%s\t%s\n", name, f.name, f.typ, oneLine(f.about))
			}
		}
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	if _, err := io.WriteString(tw, b.String()); err != nil {
		return err
	}
	return tw.Flush()
}

// argType is an argument's JSON type, arrays with their elements.
func argType(p params, name string) string {
	if h := p.hints[name]; strings.HasPrefix(h, "an array of ") {
		return "array of " + strings.TrimPrefix(h, "an array of ")
	}
	return p.types[name]
}

// argAbout describes one argument: required, its values, its description.
func argAbout(p params, name string) string {
	var parts []string
	if slices.Contains(p.required, name) {
		parts = append(parts, "required")
	}
	if h := p.hints[name]; p.types[name] == "string" && strings.Contains(h, " or ") {
		parts = append(parts, h)
	}
	if d := oneLine(p.descs[name]); d != "" {
		parts = append(parts, d)
	}
	return strings.Join(parts, "; ")
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
