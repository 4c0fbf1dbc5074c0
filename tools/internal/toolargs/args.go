package toolargs

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Values decodes a tool's JSON arguments field by field so that a bad call
// gets an answer naming the field and the expected type, never a panic.
// The first problem is kept (see Err); later accessors return zero values.
type Values struct {
	// Prefix is put before field names in messages: "comments[2]." when
	// decoding an element of an array.
	Prefix string

	m   map[string]json.RawMessage
	err error
}

// Parse accepts a JSON object; empty input and null mean no arguments.
func Parse(raw []byte) *Values {
	a := &Values{m: map[string]json.RawMessage{}}
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return a
	}
	if err := json.Unmarshal(raw, &a.m); err != nil {
		a.err = fmt.Errorf("arguments are not a valid JSON object (%s); send an object such as {%s}", JSONError(err), `"name": value`)
	}
	return a
}

// JSONError shortens encoding/json's messages for the model.
func JSONError(err error) string {
	return strings.TrimPrefix(err.Error(), "json: ")
}

// Err is the first decoding problem, or nil.
func (a *Values) Err() error { return a.err }

// fail records the first problem.
func (a *Values) fail(format string, v ...any) {
	if a.err == nil {
		a.err = fmt.Errorf(format, v...)
	}
}

// Get returns a field's raw value; null counts as absent.
func (a *Values) Get(name string) (json.RawMessage, bool) {
	if a.err != nil {
		return nil, false
	}
	v, ok := a.m[name]
	if !ok || string(bytes.TrimSpace(v)) == "null" {
		return nil, false
	}
	return v, true
}

// Kind names the JSON type of v for error messages.
func Kind(v json.RawMessage) string {
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

// Str returns a string field; required fields report "<name> is required".
func (a *Values) Str(name string, required bool) string {
	v, ok := a.Get(name)
	if !ok {
		if required {
			a.fail("%s is required", name)
		}
		return ""
	}
	var s string
	if err := json.Unmarshal(v, &s); err != nil {
		a.fail("%s must be a string, got %s", a.Prefix+name, Kind(v))
	}
	return s
}

// Int returns an integer field or 0; a numeric string is accepted.
func (a *Values) Int(name string) int {
	v, ok := a.Get(name)
	if !ok {
		return 0
	}
	var f float64
	if err := json.Unmarshal(v, &f); err != nil {
		var s string
		if json.Unmarshal(v, &s) != nil {
			a.fail("%s must be an integer, got %s", a.Prefix+name, Kind(v))
			return 0
		}
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil {
			a.fail("%s must be an integer, got %s", a.Prefix+name, Kind(v))
		}
		return n
	}
	if f != math.Trunc(f) || math.Abs(f) > 1e9 {
		a.fail("%s must be an integer, got %s", a.Prefix+name, string(v))
		return 0
	}
	return int(f)
}

// Bool returns a boolean field or def; "true"/"false" strings are accepted.
func (a *Values) Bool(name string, def bool) bool {
	v, ok := a.Get(name)
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
	a.fail("%s must be a boolean, got %s", a.Prefix+name, Kind(v))
	return def
}

// Strings returns an array-of-strings field. A lone string is accepted as
// one element, or as a JSON-encoded array (models send both).
func (a *Values) Strings(name string, required bool) []string {
	v, ok := a.Get(name)
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
			if Kind(el) != "a string" {
				a.fail("%s must be an array of strings; element %d is %s", a.Prefix+name, i, Kind(el))
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
	a.fail("%s must be an array of strings, got %s", a.Prefix+name, Kind(v))
	return nil
}
