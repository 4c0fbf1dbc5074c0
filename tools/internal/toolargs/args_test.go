package toolargs

import (
	"slices"
	"strings"
	"testing"
)

// TestValuesLenient: the forms models send instead of the declared type
// are accepted, and null counts as absent.
func TestValuesLenient(t *testing.T) {
	a := Parse([]byte(`{"n":"12","f":3.0,"b":"TRUE","one":"x.go","enc":"[\"a\",\"b\"]","gone":null}`))
	if a.Int("n") != 12 || a.Int("f") != 3 || !a.Bool("b", false) || a.Bool("gone", false) {
		t.Errorf("numbers or booleans: %v", a.Err())
	}
	if got := a.Strings("one", true); !slices.Equal(got, []string{"x.go"}) {
		t.Errorf("lone string: %q", got)
	}
	if got := a.Strings("enc", true); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("encoded array: %q", got)
	}
	if _, ok := a.Get("gone"); ok || a.Err() != nil {
		t.Errorf("null field: present %t, err %v", ok, a.Err())
	}
}

// TestValuesFirstErrorKept: the first problem names the field (with the
// element prefix) and the type sent; later ones do not replace it.
func TestValuesFirstErrorKept(t *testing.T) {
	a := Parse([]byte(`{"x":1.5,"y":[]}`))
	a.Prefix = "comments[2]."
	a.Int("x")
	a.Str("y", false)
	a.Str("z", true)
	if a.Err() == nil || a.Err().Error() != "comments[2].x must be an integer, got 1.5" {
		t.Errorf("err = %v", a.Err())
	}
	if err := Parse([]byte(`[1]`)).Err(); err == nil || !strings.Contains(err.Error(), "not a valid JSON object") {
		t.Errorf("array arguments: %v", err)
	}
}

// TestSchemaCheck: a schema refuses a property the implementation does
// not read or reads with another type, and a call with an unknown name
// or without a required one.
func TestSchemaCheck(t *testing.T) {
	impl := []Param{{Name: "file_path", Type: "string"}, {Name: "start_line", Type: "integer"}}
	for doc, want := range map[string]string{
		`{"type":"object","properties":{"lines":{"type":"string"}}}`:       `property "lines" is not read by this tool`,
		`{"type":"object","properties":{"start_line":{"type":"string"}}}`:  `declare "type": "integer"`,
		`{"type":"object","properties":{"file_path":{"$ref":"http://x"}}}`: "external reference",
	} {
		if _, err := ParseSchema([]byte(doc), impl); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", doc, err, want)
		}
	}
	s, err := ParseSchema([]byte(`{"type":"object","properties":{"file_path":{"type":"string"},"start_line":{"type":"integer"}},"required":["start_line"]}`), impl)
	if err != nil {
		t.Fatal(err)
	}
	for raw, want := range map[string]string{
		`{"path":"a","start_line":1}`: `file_read has no argument "path"; did you mean "file_path"?`,
		`{"file_path":"a"}`:           "start_line is required (an integer)",
		`{"start_line":1}`:            "",
		`not json`:                    "",
	} {
		got := ""
		if err := s.Check("file_read", raw); err != nil {
			got = err.Error()
		}
		if want == "" && got != "" || !strings.Contains(got, want) {
			t.Errorf("%s: %q, want %q", raw, got, want)
		}
	}
}
