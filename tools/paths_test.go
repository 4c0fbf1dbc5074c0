package tools

import (
	"strings"
	"testing"
)

func TestSafePath(t *testing.T) {
	for _, tc := range []struct{ in, want, err string }{
		{"a/b.go", "a/b.go", ""},
		{"./a//b.go", "a/b.go", ""},
		{`a\b.go`, "a/b.go", ""},
		{"a/../b.go", "b.go", ""},
		{"a:1/b:2:.go", "a:1/b:2:.go", ""},
		{"", "", "is empty"},
		{".", "", "is empty"},
		{"..", "", "outside repository"},
		{"../x", "", "outside repository"},
		{"a/../../x", "", "outside repository"},
		{`..\x`, "", "outside repository"},
		{"/etc/passwd", "etc/passwd", ""},
		{"/src/foo.go", "src/foo.go", ""},
		{"//src//foo.go", "src/foo.go", ""},
		{`\src\foo.go`, "src/foo.go", ""},
		{"/", "", "is empty"},
		{"/../etc/passwd", "", "outside repository"},
		{`\..\x`, "", "outside repository"},
		{"/a/../../x", "", "outside repository"},
		{"/.git/config", "", "inside .git"},
		{"C:/Windows", "", "outside repository"},
		{"a\x00b", "", "outside repository"},
		{".git/config", "", "inside .git"},
		{"sub/.GIT/config", "", "inside .git"},
		{".gitignore", ".gitignore", ""},
	} {
		got, err := safePath(tc.in)
		if tc.err == "" && (err != nil || got != tc.want) {
			t.Errorf("safePath(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
		if tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("safePath(%q) error = %v, want %q", tc.in, err, tc.err)
		}
	}
}

// TestCheckPathspecs: magic stays usable, nothing leaves the repository.
func TestCheckPathspecs(t *testing.T) {
	ok := []string{"*.go", ":(exclude)vendor/", ":!*_test.go", ":^docs", ":(top)src", ":/src", ":(glob)**/*.go",
		":(exclude,glob)a/**", "-rf", "--open-files-in-pager", "a..b", "..a", "a/b..", " "}
	got, r := checkPathspecs(ok)
	if r != nil {
		t.Fatalf("rejected valid pathspecs: %s", r.Text)
	}
	if len(got) != len(ok)-1 {
		t.Errorf("kept %d of %d (only the blank one should go): %q", len(got), len(ok), got)
	}
	for _, bad := range []string{"..", "../x", "a/../..", `a\..\..`, ":(exclude)../x", ":!../x", ":(top)../x", ":/../x", ":(glob)**/../x"} {
		if _, r := checkPathspecs([]string{bad}); r == nil || r.Text != dotDotPatternText {
			t.Errorf("checkPathspecs(%q) = %v, want %q", bad, r, dotDotPatternText)
		}
	}
	if _, r := checkPathspecs([]string{"a\x00b"}); r == nil || !strings.Contains(r.Text, "control characters") {
		t.Errorf("a NUL in a pathspec is accepted: %v", r)
	}
	for _, bad := range []string{"/etc", ":(top)/etc", ":(exclude)/etc"} {
		if _, r := checkPathspecs([]string{bad}); r == nil || !strings.Contains(r.Text, "relative to the repository root") {
			t.Errorf("checkPathspecs(%q) = %v, want a relative-path error", bad, r)
		}
	}
}
