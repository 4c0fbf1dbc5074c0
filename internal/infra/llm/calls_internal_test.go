package llm

import "testing"

func TestLenientJSONScanning(t *testing.T) {
	for in, want := range map[string]string{
		`{"a": [1, 2,], "b": "x,}",}`: `{"a": [1, 2], "b": "x,}"}`,
		`{"a": "q\",]"  ,  }`:         `{"a": "q\",]"    }`,
		`no commas`:                   `no commas`,
	} {
		if got := dropTrailingCommas(in); got != want {
			t.Errorf("dropTrailingCommas(%q) = %q, want %q", in, got, want)
		}
	}
	s := `say {"a": "}", "b": {"c": 1}} then {"x": 2}`
	if i, j, ok := objectSpan(s); !ok || s[i:j] != `{"a": "}", "b": {"c": 1}}` {
		t.Errorf("objectSpan = %q", s[i:j])
	}
	if i, j, ok := objectSpan(`x {"a": 1`); !ok || i != 2 || j != 9 {
		t.Errorf("unbalanced: %d %d %v", i, j, ok)
	}
}
