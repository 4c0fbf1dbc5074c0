package gitlabapi

import (
	"encoding/json"
	"testing"
)

// TestIntForms: every form GitLab sends a number in reads as that number
// (a JSON number, a numeric string, padded), every form of "no value" as
// 0 (null, "", "null"); anything else is an error, never a silent 0.
func TestIntForms(t *testing.T) {
	for in, want := range map[string]Int{`59`: 59, `"59"`: 59, `" 7 "`: 7, `-3`: -3, `"9007199254740993"`: 9007199254740993,
		`null`: 0, `""`: 0, `"null"`: 0, `" null "`: 0, `0`: 0, `"0"`: 0} {
		n := Int(-1)
		if err := json.Unmarshal([]byte(in), &n); err != nil || n != want {
			t.Errorf("%s: %d, %v; want %d", in, n, err, want)
		}
	}
	for _, in := range []string{`"fifty"`, `true`, `{}`, `[]`, `1.5`, `"1.5"`, `1e3`, `"0x10"`, `"59abc"`} {
		var n Int
		if err := json.Unmarshal([]byte(in), &n); err == nil {
			t.Errorf("%s: no error (read %d)", in, n)
		}
	}
}

// TestIntInStruct: a field GitLab sends as a string decodes in place, and
// an absent one stays 0.
func TestIntInStruct(t *testing.T) {
	var v struct {
		IID    Int `json:"iid"`
		Source Int `json:"source_project_id"`
		Target Int `json:"target_project_id"`
	}
	if err := json.Unmarshal([]byte(`{"iid":"5","source_project_id":42}`), &v); err != nil || v.IID != 5 || v.Source != 42 || v.Target != 0 {
		t.Errorf("%+v, %v", v, err)
	}
}
