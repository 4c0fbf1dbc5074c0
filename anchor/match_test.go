package anchor

import (
	"fmt"
	"strings"
	"testing"
)

func TestNormalize(t *testing.T) {
	for in, want := range map[string]string{
		"\t\treturn x  ":      "return x",
		"a\t=  b\r":           "a = b",
		"  ":                  "",
		"x := 1":              "x := 1",
		"if a  &&\t\tb {\r\n": "if a && b {",
	} {
		if got := normalize(in); got != want {
			t.Errorf("normalize(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestIsEllipsis(t *testing.T) {
	for _, s := range []string{"...", "…", "// ...", "# ...", "/* ... */", "<!-- ... -->", "[...]", "// …"} {
		if !isEllipsis(s) {
			t.Errorf("isEllipsis(%q) = false", s)
		}
	}
	for _, s := range []string{"x...", "fmt.Println(args...)", "// ... and more", "..", ""} {
		if isEllipsis(s) {
			t.Errorf("isEllipsis(%q) = true", s)
		}
	}
}

func TestParseSnippet(t *testing.T) {
	for _, c := range []struct {
		name, code string
		want       string // items as lit|alt|mark|weak|gap, one per line
		hint       int
	}{
		{"plain", "\tfoo()\n\n\tbar()\n", "foo()|foo()|0|false|false\nbar()|bar()|0|false|false", 0},
		{"markers", "+\tfoo()\n-bar()\n baz()", "+ foo()|foo()|43|false|false\n-bar()|bar()|45|false|false\nbaz()|baz()|0|false|false", 0},
		{"indented dash is text", "  - item\nkey: v", "- item|- item|0|false|false\nkey: v|key: v|0|false|false", 0},
		{"indented markers are text", "    +a\n    -b", "+a|+a|0|false|false\n-b|-b|0|false|false", 0},
		{"list item is a weak marker", "- item\n-    indented", "- item|item|45|true|false\n- indented|indented|45|false|false", 0},
		{"read prefixes", "10|func f() {\n11|\n12|\t- x", "func f() {|func f() {|0|false|false\n- x|- x|0|false|false", 10},
		{"prefix on some lines only", "10|a\nb", "10|a|10|a|0|false|false\nb|b|0|false|false", 0},
		{"ellipsis", "a\n  // ...\nb", "a|a|0|false|false\n// ...|// ...|0|false|true\nb|b|0|false|false", 0},
		{"crlf", "a\r\nb\r\n", "a|a|0|false|false\nb|b|0|false|false", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			sn := parseSnippet(c.code)
			var got []string
			for _, it := range sn.items {
				got = append(got, fmt.Sprintf("%s|%s|%d|%v|%v", it.lit, it.alt, it.mark, it.weak, it.gap))
			}
			if g := strings.Join(got, "\n"); g != c.want || sn.hint != c.hint {
				t.Errorf("parseSnippet(%q) =\n%s (hint %d)\nwant\n%s (hint %d)", c.code, g, sn.hint, c.want, c.hint)
			}
		})
	}
}

func TestFenced(t *testing.T) {
	for in, want := range map[string]string{
		"Here:\n```go\nx := 1\ny := 2\n```\nmore": "x := 1\ny := 2",
		"x := 1":   "x := 1",
		"~~~\na\n": "a\n",
		"```\n```": "",
	} {
		if got := fenced(in); got != want {
			t.Errorf("fenced(%q) = %q, want %q", in, got, want)
		}
	}
}
