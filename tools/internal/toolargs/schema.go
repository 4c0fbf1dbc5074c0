package toolargs

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Param is one argument an implementation reads: its name and the JSON
// Schema type a tools file must declare for it.
type Param struct {
	Name string
	Type string // "string", "integer", "boolean" or "array"
}

// Schema is what a definition's parameters schema says about the
// arguments: the names offered to the model, in file order, the required
// ones, and a short hint per name for error messages.
type Schema struct {
	names    []string
	required []string
	hints    map[string]string
	types    map[string]string  // the implementation's type of each name
	descs    map[string]string  // each name's description, if any
	items    map[string][]Field // the fields of an array of objects, for listing
}

// Field is one property of the objects of an array argument, as the
// schema describes it (shown by `ocr tools list`).
type Field struct {
	Name, Type, About string
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

// ParseSchema checks a definition's parameters against the tool's
// implementation: an object schema whose properties are arguments the
// implementation reads, with the type it reads, and whose required names
// are among them. Nothing outside the document is ever loaded.
func ParseSchema(raw json.RawMessage, impl []Param) (Schema, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return Schema{}, errors.New("missing; give a JSON Schema such as {\"type\": \"object\", \"properties\": {...}}")
	}
	var doc struct {
		Type       any             `json:"type"`
		Properties json.RawMessage `json:"properties"`
		Required   []string        `json:"required"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return Schema{}, fmt.Errorf("not a JSON Schema object: %w", err)
	}
	if doc.Type != "object" {
		return Schema{}, errors.New(`must have "type": "object"`)
	}
	var tree any
	_ = json.Unmarshal(raw, &tree)
	if ref := externalRef(tree); ref != "" {
		return Schema{}, fmt.Errorf("external reference %q is not allowed; a tools file must be self-contained", ref)
	}
	p := Schema{required: doc.Required, hints: map[string]string{}, types: map[string]string{},
		descs: map[string]string{}, items: map[string][]Field{}}
	names, props, err := orderedProperties(doc.Properties)
	if err != nil {
		return Schema{}, err
	}
	for i, name := range names {
		if err := p.add(name, props[i], impl); err != nil {
			return Schema{}, err
		}
	}
	for _, name := range p.required {
		if !slices.Contains(p.names, name) {
			return Schema{}, fmt.Errorf("required names %q, which is not among the properties; declare it or remove it from required", name)
		}
	}
	return p, nil
}

// add checks one declared property against the implementation and
// records it.
func (p *Schema) add(name string, pr property, impl []Param) error {
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
func itemFields(raw json.RawMessage, required []string) ([]Field, error) {
	names, props, err := orderedProperties(raw)
	if err != nil {
		return nil, err
	}
	var out []Field
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
		out = append(out, Field{Name: name, Type: strings.Join(schemaTypes(props[i].Type), "|"), About: strings.Join(about, "; ")})
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
