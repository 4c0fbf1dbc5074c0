package rules

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// File is a rule.json, compatible with Open Code Review's format.
type File struct {
	// Include, when not empty, limits review to files matching one of its globs.
	Include []string `json:"include"`
	// Exclude removes files matching one of its globs from review.
	Exclude []string `json:"exclude"`
	// Rules are tried in order; the first whose Path matches wins.
	Rules []UserRule `json:"rules"`
	// Ignore lists findings never to report (see ignore.go); an ocr
	// extension, as "/ocr ignore" shows it.
	Ignore []Ignored `json:"ignore,omitempty"`
}

// UserRule maps a glob to review instructions.
type UserRule struct {
	// Path is a doublestar glob matched against the lowercased file path.
	Path string `json:"path"`
	// Rule is the text the model gets for matching files.
	Rule string `json:"rule"`
	// MergeSystemRule appends Rule to the built-in rule instead of replacing it.
	MergeSystemRule bool `json:"merge_system_rule"`
}

// ParseFile decodes a rule.json strictly: unknown fields, wrong types,
// trailing data, empty paths or rules and invalid globs are errors that name
// the file (name) and the field.
func ParseFile(name string, data []byte) (*File, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var f File
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("rule file %s: %s; fix the JSON (format: {\"include\": [...], \"exclude\": [...], \"rules\": [{\"path\": \"glob\", \"rule\": \"text\", \"merge_system_rule\": false}]})",
			name, describeJSONError(data, err))
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("rule file %s: unexpected data after the top-level object; remove it", name)
	}
	if err := f.validate(); err != nil {
		return nil, fmt.Errorf("rule file %s: %w", name, err)
	}
	return &f, nil
}

// validate checks every glob and every rule.
func (f *File) validate() error {
	for i, g := range f.Include {
		if err := checkGlob(g); err != nil {
			return fmt.Errorf("include[%d]: %w", i, err)
		}
	}
	for i, g := range f.Exclude {
		if err := checkGlob(g); err != nil {
			return fmt.Errorf("exclude[%d]: %w", i, err)
		}
	}
	if err := checkIgnore(f.Ignore); err != nil {
		return err
	}
	for i, r := range f.Rules {
		if err := checkGlob(r.Path); err != nil {
			return fmt.Errorf("rules[%d].path: %w", i, err)
		}
		if strings.TrimSpace(r.Rule) == "" {
			return fmt.Errorf("rules[%d].rule: empty; write the instructions for files matching %q", i, r.Path)
		}
	}
	return nil
}

// checkGlob rejects empty and malformed doublestar patterns.
func checkGlob(g string) error {
	if strings.TrimSpace(g) == "" {
		return errors.New("empty glob; use a doublestar pattern such as \"src/**/*.go\"")
	}
	if !doublestar.ValidatePattern(strings.ToLower(g)) {
		return fmt.Errorf("invalid glob %q; check brackets and braces", g)
	}
	return nil
}

// describeJSONError turns a decoding error into "field: problem (line L)".
func describeJSONError(data []byte, err error) string {
	var typ *json.UnmarshalTypeError
	var syn *json.SyntaxError
	switch {
	case errors.As(err, &typ):
		field := typ.Field
		if field == "" {
			field = "top level"
		}
		return fmt.Sprintf("field %s: expected %s, got %s (line %d)", field, typ.Type, typ.Value, lineOf(data, typ.Offset))
	case errors.As(err, &syn):
		return fmt.Sprintf("syntax error at line %d: %s", lineOf(data, syn.Offset), syn.Error())
	case errors.Is(err, io.EOF):
		return "empty file"
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "truncated JSON"
	}
	if f, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		return "unknown field " + f + " (known: include, exclude, rules[].path, rules[].rule, rules[].merge_system_rule, ignore[].fingerprint, ignore[].path, ignore[].reason)"
	}
	return err.Error()
}

// lineOf returns the 1-based line of a byte offset.
func lineOf(data []byte, off int64) int {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	return bytes.Count(data[:off], []byte("\n")) + 1
}
