package grouping

import (
	"fmt"
	"testing"
)

func paths(ps ...string) []File {
	out := make([]File, len(ps))
	for i, p := range ps {
		out[i] = File{Path: p, Churn: 150, Tokens: 1000}
	}
	return out
}

func render(files []File, gs []Group) string {
	var s string
	for _, g := range gs {
		s += "["
		for k, i := range g {
			if k > 0 {
				s += " "
			}
			s += files[i].Path
		}
		s += "]"
	}
	return s
}

func TestStem(t *testing.T) {
	for in, want := range map[string]string{
		"foo.go": "foo", "foo_test.go": "foo+", "foo.spec.ts": "foo+", "FooImpl.java": "foo+",
		"IFoo.cs": "foo+", "Index.ts": "index", "IOUtils.java": "ioutils", "messages_en.properties": "messages",
		"messages_zh_CN.properties": "messages", "strings.pt-BR.json": "strings", ".eslintrc.json": ".eslintrc",
		"my_it_service.go": "my_it_service", "foo.pb.go": "foo", "FooTest.java": "foo+",
	} {
		s, role := stem(in)
		if role {
			s += "+"
		}
		if s != want {
			t.Errorf("stem(%q) = %q, want %q", in, s, want)
		}
	}
}

func TestBundle(t *testing.T) {
	tests := []struct {
		name  string
		files []File
		max   int
		want  string
	}{
		{"small change is one group", []File{{Path: "a/x.go", Churn: 10}, {Path: "b/y.go", Churn: 20}}, 8,
			"[a/x.go b/y.go]"},
		{"directory and stems", paths("a/x.go", "b/y.go", "a/x_test.go", "b/z.go", "c/w.go"), 8,
			"[a/x.go a/x_test.go][b/y.go b/z.go][c/w.go]"},
		{"interface and impl across dirs", paths("svc/UserService.java", "api/Other.java", "svc/impl/UserServiceImpl.java"), 8,
			"[svc/UserService.java svc/impl/UserServiceImpl.java][api/Other.java]"},
		{"locale variants", paths("i18n/messages_en.properties", "lib/a.go", "i18n/messages_zh.properties", "locales/en/app.json", "locales/zh-CN/app.json"), 8,
			"[i18n/messages_en.properties i18n/messages_zh.properties][lib/a.go][locales/en/app.json locales/zh-CN/app.json]"},
		{"file cap splits a directory", paths("d/a.go", "d/b.go", "d/c.go", "d/e.go", "d/f.go"), 2,
			"[d/a.go d/b.go][d/c.go d/e.go][d/f.go]"},
		{"generic names do not bundle across dirs", paths("a/index.ts", "b/index.ts"), 8,
			"[a/index.ts][b/index.ts]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := render(tt.files, Bundle(tt.files, tt.max, 0))
			if got != tt.want {
				t.Errorf("Bundle =\n %s\nwant\n %s", got, tt.want)
			}
		})
	}
}

func TestBundleCoversEveryFileOnce(t *testing.T) {
	var files []File
	for i := 0; i < 500; i++ {
		files = append(files, File{Path: fmt.Sprintf("d%d/f%d.go", i%13, i%37), Churn: 90, Tokens: 700 * (i%9 + 1)})
	}
	seen := make([]int, len(files))
	for _, g := range Bundle(files, 5, 6000) {
		tok := 0
		for _, i := range g {
			seen[i]++
			tok += files[i].Tokens
		}
		if len(g) > 5 || (len(g) > 1 && tok > 6000) {
			t.Errorf("group %v exceeds the caps (%d tokens)", g, tok)
		}
	}
	for i, n := range seen {
		if n != 1 {
			t.Errorf("file %d is in %d groups", i, n)
		}
	}
	if a, b := render(files, Bundle(files, 5, 6000)), render(files, Bundle(files, 5, 6000)); a != b {
		t.Error("Bundle is not deterministic")
	}
}
