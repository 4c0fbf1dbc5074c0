package posting

import (
	"strings"
	"testing"
)

func TestPostSafe(t *testing.T) {
	cases := []struct{ in, want string }{
		{"a <b> c", "a &lt;b> c"},
		{"see `a < b` and ``x`y``", "see `a < b` and ``x`y``"},
		{"![img](http://x) @octocat e@mail", "!\\[img\\](`http://x`) @\u200boctocat e@mail"},
		{"<!-- ocr:fp=x -->", "&lt;!-- ocr:fp=x -->"},
		{"`<!--`", "`<!-\u200b-`"},
		{"```go\nif a <!-- b {\n```\nafter <x>", "```go\nif a <!-\u200b- b {\n```\nafter &lt;x>"},
		{"```\nunclosed", "```\nunclosed\n```"},
		{"~~~~\n```\n~~~~\n<y>", "~~~~\n```\n~~~~\n&lt;y>"},
		{"a\x1b[31mred\u202egnp.exe\r\nb\tc", "a[31mredgnp.exe\nb\tc"},
	}
	for _, c := range cases {
		if got := postSafe(c.in, Links{}); got != c.want {
			t.Errorf("postSafe(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestPostFence(t *testing.T) {
	for code, want := range map[string]string{"x": "```", "a ``` b": "````", "`````": "``````"} {
		if got := Fence(code); got != want {
			t.Errorf("Fence(%q) = %q, want %q", code, got, want)
		}
	}
}

func TestPostCutKeepsRunes(t *testing.T) {
	s := strings.Repeat("日本", 100)
	got := postCut(s, 100)
	if len(got) > 100 || !strings.HasSuffix(got, "(truncated)") || !strings.HasPrefix(got, "日本") {
		t.Errorf("postCut = %q", got)
	}
}
