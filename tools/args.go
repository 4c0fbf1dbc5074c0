package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// args decodes a tool's JSON arguments field by field so that a bad call
// gets an answer naming the field and the expected type, never a panic.
// The first problem is kept in err; later accessors return zero values.
type args struct {
	m      map[string]json.RawMessage
	err    error
	prefix string // "comments[2]." when decoding an element
}

// parseArgs accepts a JSON object; empty input and null mean no arguments.
func parseArgs(raw []byte) *args {
	a := &args{m: map[string]json.RawMessage{}}
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return a
	}
	if err := json.Unmarshal(raw, &a.m); err != nil {
		a.err = fmt.Errorf("arguments are not a valid JSON object (%s); send an object such as {%s}", jsonErr(err), `"name": value`)
	}
	return a
}

// jsonErr shortens encoding/json's messages for the model.
func jsonErr(err error) string {
	return strings.TrimPrefix(err.Error(), "json: ")
}

// result turns the first decoding problem into an error result.
func (a *args) result() Result { return errorf("%s", a.err.Error()) }

// fail records the first problem.
func (a *args) fail(format string, v ...any) {
	if a.err == nil {
		a.err = fmt.Errorf(format, v...)
	}
}

// get returns a field's raw value; null counts as absent.
func (a *args) get(name string) (json.RawMessage, bool) {
	if a.err != nil {
		return nil, false
	}
	v, ok := a.m[name]
	if !ok || string(bytes.TrimSpace(v)) == "null" {
		return nil, false
	}
	return v, true
}

// kind names the JSON type of v for error messages.
func kind(v json.RawMessage) string {
	v = bytes.TrimSpace(v)
	if len(v) == 0 {
		return "nothing"
	}
	switch v[0] {
	case '"':
		return "a string"
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// str returns a string field; required fields report "<name> is required".
func (a *args) str(name string, required bool) string {
	v, ok := a.get(name)
	if !ok {
		if required {
			a.fail("%s is required", name)
		}
		return ""
	}
	var s string
	if err := json.Unmarshal(v, &s); err != nil {
		a.fail("%s must be a string, got %s", a.prefix+name, kind(v))
	}
	return s
}

// integer returns an integer field or 0; a numeric string is accepted.
func (a *args) integer(name string) int {
	v, ok := a.get(name)
	if !ok {
		return 0
	}
	var f float64
	if err := json.Unmarshal(v, &f); err != nil {
		var s string
		if json.Unmarshal(v, &s) != nil {
			a.fail("%s must be an integer, got %s", a.prefix+name, kind(v))
			return 0
		}
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil {
			a.fail("%s must be an integer, got %s", a.prefix+name, kind(v))
		}
		return n
	}
	if f != math.Trunc(f) || math.Abs(f) > 1e9 {
		a.fail("%s must be an integer, got %s", a.prefix+name, string(v))
		return 0
	}
	return int(f)
}

// boolean returns a boolean field or def; "true"/"false" strings are accepted.
func (a *args) boolean(name string, def bool) bool {
	v, ok := a.get(name)
	if !ok {
		return def
	}
	var b bool
	if err := json.Unmarshal(v, &b); err == nil {
		return b
	}
	var s string
	if json.Unmarshal(v, &s) == nil {
		if b, err := strconv.ParseBool(strings.TrimSpace(s)); err == nil {
			return b
		}
	}
	a.fail("%s must be a boolean, got %s", a.prefix+name, kind(v))
	return def
}

// strings returns an array-of-strings field. A lone string is accepted as
// one element, or as a JSON-encoded array (models send both).
func (a *args) strings(name string, required bool) []string {
	v, ok := a.get(name)
	if !ok {
		if required {
			a.fail("%s is required (an array of strings)", name)
		}
		return nil
	}
	var list []string
	if err := json.Unmarshal(v, &list); err == nil {
		return list
	}
	var elems []json.RawMessage
	if json.Unmarshal(v, &elems) == nil {
		for i, el := range elems {
			if kind(el) != "a string" {
				a.fail("%s must be an array of strings; element %d is %s", a.prefix+name, i, kind(el))
				return nil
			}
		}
	}
	var s string
	if err := json.Unmarshal(v, &s); err == nil {
		if t := strings.TrimSpace(s); strings.HasPrefix(t, "[") && json.Unmarshal([]byte(t), &list) == nil {
			return list
		}
		return []string{s}
	}
	a.fail("%s must be an array of strings, got %s", a.prefix+name, kind(v))
	return nil
}
