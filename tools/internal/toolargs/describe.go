package toolargs

import (
	"slices"
	"strings"
)

// Names are the arguments offered to the model, in file order.
func (p Schema) Names() []string { return p.names }

// Fields are the properties of the objects of array argument name, in file
// order; nil for other arguments.
func (p Schema) Fields(name string) []Field { return p.items[name] }

// TypeOf is an argument's JSON type, arrays with their elements.
func (p Schema) TypeOf(name string) string {
	if h := p.hints[name]; strings.HasPrefix(h, "an array of ") {
		return "array of " + strings.TrimPrefix(h, "an array of ")
	}
	return p.types[name]
}

// About describes one argument on one line: required, its values, its
// description.
func (p Schema) About(name string) string {
	var parts []string
	if slices.Contains(p.required, name) {
		parts = append(parts, "required")
	}
	if h := p.hints[name]; p.types[name] == "string" && strings.Contains(h, " or ") {
		parts = append(parts, h)
	}
	if d := strings.Join(strings.Fields(p.descs[name]), " "); d != "" {
		parts = append(parts, d)
	}
	return strings.Join(parts, "; ")
}
