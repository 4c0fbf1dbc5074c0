package tools

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/ocr-ci/ocr/internal/textdist"
)

// Param is one argument an implementation reads: its name and the JSON
// Schema type a tools file must declare for it.
type Param struct {
	Name string
	Type string // "string", "integer", "boolean" or "array"
}

// params is what a definition's parameters schema says about the
// arguments: the names offered to the model, in file order, the required
// ones, and a short hint per name for error messages.
type params struct {
	names    []string
	required []string
	hints    map[string]string
	types    map[string]string  // the implementation's type of each name
	descs    map[string]string  // each name's description, if any
	items    map[string][]field // the fields of an array of objects, for listing
}

// field is one property of the objects of an array argument, as the
// schema describes it (shown by `ocr tools list`).
type field struct {
	name, typ, about string
}

// property is the part of a JSON Schema property that ocr reads.
type property struct {
	Type        json.RawMessage `json:"type"`
	Description string          `json:"description"`
	Enum        []any           `json:"enum"`
	Items       *struct {
		Type       json.RawMessage `json:"type"`
		Properties json.RawMessage `json:"properties"`
		Required   []string        `json:"required"`
	} `json:"items"`
}

// parseParams checks a definition's parameters against the tool's
// implementation: an object schema whose properties are arguments the
// implementation reads, with the type it reads, and whose required names
// are among them. Nothing outside the document is ever loaded.
func parseParams(raw json.RawMessage, impl []Param) (params, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return params{}, errors.New("missing; give a JSON Schema such as {\"type\": \"object\", \"properties\": {...}}")
	}
	var doc struct {
		Type       any             `json:"type"`
		Properties json.RawMessage `json:"properties"`
		Required   []string        `json:"required"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return params{}, fmt.Errorf("not a JSON Schema object: %w", err)
	}
	if doc.Type != "object" {
		return params{}, errors.New(`must have "type": "object"`)
	}
	var tree any
	_ = json.Unmarshal(raw, &tree)
	if ref := externalRef(tree); ref != "" {
		return params{}, fmt.Errorf("external reference %q is not allowed; a tools file must be self-contained", ref)
	}
	p := params{required: doc.Required, hints: map[string]string{}, types: map[string]string{},
		descs: map[string]string{}, items: map[string][]field{}}
	names, props, err := orderedProperties(doc.Properties)
	if err != nil {
		return params{}, err
	}
	for i, name := range names {
		if err := p.add(name, props[i], impl); err != nil {
			return params{}, err
		}
	}
	for _, name := range p.required {
		if !slices.Contains(p.names, name) {
			return params{}, fmt.Errorf("required names %q, which is not among the properties; declare it or remove it from required", name)
		}
	}
	return p, nil
}

// add checks one declared property against the implementation and
// records it.
func (p *params) add(name string, pr property, impl []Param) error {
	hint, err := checkProperty(name, pr, impl)
	if err != nil {
		return err
	}
	p.names = append(p.names, name)
	p.hints[name] = hint
	p.types[name] = impl[slices.IndexFunc(impl, func(q Param) bool { return q.Name == name })].Type
	p.descs[name] = pr.Description
	if pr.Items != nil {
		if p.items[name], err = itemFields(pr.Items.Properties, pr.Items.Required); err != nil {
			return fmt.Errorf("property %q: items: %w", name, err)
		}
	}
	return nil
}

// itemFields lists the properties of an array's objects, in file order.
func itemFields(raw json.RawMessage, required []string) ([]field, error) {
	names, props, err := orderedProperties(raw)
	if err != nil {
		return nil, err
	}
	var out []field
	for i, name := range names {
		var about []string
		if slices.Contains(required, name) {
			about = append(about, "required")
		}
		var vals []string
		for _, v := range props[i].Enum {
			vals = append(vals, fmt.Sprint(v))
		}
		if len(vals) > 0 {
			about = append(about, strings.Join(vals, ", "))
		}
		if d := props[i].Description; d != "" {
			about = append(about, d)
		}
		out = append(out, field{name: name, typ: strings.Join(schemaTypes(props[i].Type), "|"), about: strings.Join(about, "; ")})
	}
	return out, nil
}

// orderedProperties decodes the properties object keeping its key order,
// which is the order `ocr tools list` shows.
func orderedProperties(raw json.RawMessage) ([]string, []property, error) {
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		return nil, nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, nil, errors.New(`"properties" must be an object of named argument schemas`)
	}
	var names []string
	var props []property
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, nil, fmt.Errorf(`"properties": %w`, err)
		}
		name, _ := t.(string)
		var pr property
		if err := dec.Decode(&pr); err != nil {
			return nil, nil, fmt.Errorf("property %q is not a JSON Schema object: %w", name, err)
		}
		if slices.Contains(names, name) {
			return nil, nil, fmt.Errorf("property %q is declared twice", name)
		}
		names, props = append(names, name), append(props, pr)
	}
	return names, props, nil
}

// checkProperty matches one declared property with the implementation and
// returns its hint: the enum values, or the type in words.
func checkProperty(name string, pr property, impl []Param) (string, error) {
	i := slices.IndexFunc(impl, func(p Param) bool { return p.Name == name })
	if i < 0 {
		return "", fmt.Errorf("property %q is not read by this tool, so the model's value would be ignored; its arguments are %s", name, paramNames(impl))
	}
	want := impl[i].Type
	if types := schemaTypes(pr.Type); len(types) > 0 && !slices.Contains(types, want) {
		return "", fmt.Errorf("property %q has type %s, but the tool reads %s; declare \"type\": %q", name, strings.Join(types, "|"), want, want)
	}
	if len(pr.Enum) > 0 {
		var vals []string
		for _, v := range pr.Enum {
			vals = append(vals, fmt.Sprint(v))
		}
		return strings.Join(vals, " or "), nil
	}
	if want == "array" && pr.Items != nil && slices.Contains(schemaTypes(pr.Items.Type), "object") {
		return "an array of objects", nil
	}
	return map[string]string{"string": "a string", "integer": "an integer", "boolean": "true or false", "array": "an array of strings"}[want], nil
}

// externalRef returns the first "$ref" in the schema tree that points
// outside the document: the model's provider would have to fetch it.
func externalRef(v any) string {
	switch v := v.(type) {
	case map[string]any:
		if ref, ok := v["$ref"].(string); ok && !strings.HasPrefix(ref, "#") {
			return ref
		}
		for _, child := range v {
			if ref := externalRef(child); ref != "" {
				return ref
			}
		}
	case []any:
		for _, child := range v {
			if ref := externalRef(child); ref != "" {
				return ref
			}
		}
	}
	return ""
}

// schemaTypes reads a "type" that is a string or an array of strings.
func schemaTypes(raw json.RawMessage) []string {
	var one string
	if json.Unmarshal(raw, &one) == nil {
		return []string{one}
	}
	var many []string
	_ = json.Unmarshal(raw, &many)
	return many
}

// paramNames lists the implementation's argument names.
func paramNames(impl []Param) string {
	var names []string
	for _, p := range impl {
		names = append(names, p.Name)
	}
	return strings.Join(names, ", ")
}

// checkArgs answers a call whose argument names do not fit the schema the
// model was offered: an unknown name (listing the valid ones, with the
// likely one first) or a missing required one. Arguments that are not a
// JSON object are left to the tool, which says so.
func checkArgs(tool string, p params, raw string) *Result {
	a := parseArgs([]byte(raw))
	if a.err != nil {
		return nil
	}
	var unknown []string
	for name := range a.m {
		if !slices.Contains(p.names, name) {
			unknown = append(unknown, name)
		}
	}
	if len(unknown) > 0 {
		slices.Sort(unknown)
		r := errorf("%s", unknownArgs(tool, p.names, unknown))
		return &r
	}
	for _, name := range p.required {
		if _, ok := a.get(name); !ok {
			r := errorf("%s", requiredArg(name, p.hints[name]))
			return &r
		}
	}
	return nil
}

// unknownArgs says which names are not arguments of tool and which are.
func unknownArgs(tool string, valid, unknown []string) string {
	var b strings.Builder
	quoted := make([]string, len(unknown))
	for i, u := range unknown {
		quoted[i] = fmt.Sprintf("%q", u)
	}
	if len(unknown) == 1 {
		fmt.Fprintf(&b, "%s has no argument %s", tool, quoted[0])
	} else {
		fmt.Fprintf(&b, "%s has no arguments %s", tool, strings.Join(quoted, ", "))
	}
	end := "."
	if len(unknown) == 1 {
		if guess := closest(unknown[0], valid); guess != "" {
			fmt.Fprintf(&b, "; did you mean %q", guess)
			end = "?"
		}
	}
	if len(valid) == 0 {
		b.WriteString(end + " It takes no arguments; call it with {}.")
		return b.String()
	}
	fmt.Fprintf(&b, "%s Its arguments are: %s. Call it again with these names.", end, strings.Join(valid, ", "))
	return b.String()
}

// requiredArg says a required argument is missing and what it takes.
func requiredArg(name, hint string) string {
	if hint == "" || hint == "a string" {
		return name + " is required"
	}
	return fmt.Sprintf("%s is required (%s)", name, hint)
}

// closest is the valid name the model most likely meant: a known alias,
// one that contains
// the unknown name or is contained in it, else one within two edits, else
// one that begins the same way ("paths" for "path_array").
func closest(name string, valid []string) string {
	n := strings.ToLower(strings.TrimSpace(name))
	if len(n) < 3 {
		return ""
	}
	if v := searchAliases[n]; v != "" && slices.Contains(valid, v) {
		return v
	}
	for _, v := range valid {
		if strings.Contains(v, n) || strings.Contains(n, v) {
			return v
		}
	}
	for _, v := range valid {
		if textdist.Levenshtein(n, v) <= 2 {
			return v
		}
	}
	for _, v := range valid {
		if len(v) >= 4 && strings.HasPrefix(n, v[:4]) {
			return v
		}
	}
	return ""
}

// searchAliases are names models give the search text, which a substring
// rule would map to file_patterns or nothing.
var searchAliases = map[string]string{
	"pattern": "search_text", "query": "search_text", "regex": "search_text", "search": "search_text", "text": "search_text",
}
