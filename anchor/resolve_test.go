package anchor

import (
	"context"
	"testing"

	"github.com/ocr-ci/ocr/anchor/udiff"
)

// resolveCase is one query against the "multi" resolveFixture and the expected
// location as rendered by describeLoc.
type resolveCase struct {
	name string
	q    Query
	want string
}

func runResolveCases(t *testing.T, cases []resolveCase) {
	t.Helper()
	fx := loadResolveFixture(t, "multi")
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := describeLoc(fx.resolve(c.q, fx.options())); got != c.want {
				t.Errorf("Resolve(%q) = %s, want %s", c.q.Code, got, c.want)
			}
		})
	}
}

func TestResolveTolerances(t *testing.T) {
	runResolveCases(t, []resolveCase{
		{"exact added line", Query{Path: "calc.go", Code: "\treturn a + b"}, "calc.go new 7-7 in hunk_new"},
		{"indentation", Query{Path: "calc.go", Code: "        return a + b"}, "calc.go new 7-7 in hunk_new"},
		{"trailing whitespace", Query{Path: "calc.go", Code: "return a + b  \t"}, "calc.go new 7-7 in hunk_new"},
		{"tabs vs spaces inside", Query{Path: "calc.go", Code: "return  a +\tb"}, "calc.go new 7-7 in hunk_new"},
		{"crlf", Query{Path: "calc.go", Code: "\t// fixed sign\r\n\treturn a + b\r\n"}, "calc.go new 6-7 in hunk_new"},
		{"added with markers", Query{Path: "calc.go", Code: "+\t// fixed sign\n+\treturn a + b"}, "calc.go new 6-7 in hunk_new"},
		{"deleted with marker", Query{Path: "calc.go", Code: "-\treturn a - b"}, "calc.go old 6-6 in hunk_old"},
		{"context with space marker", Query{Path: "calc.go", Code: " func Add(a, b int) int {\n+\t// fixed sign"}, "calc.go new 5-6 in hunk_new"},
		{"marker alone for a blank line", Query{Path: "calc.go", Code: "+\t}\n+\n+\treturn a / b, nil\n "}, "calc.go new 25-27 in hunk_new"},
		{"replaced pair keeps new side", Query{Path: "calc.go", Code: "-\treturn a - b\n+\t// fixed sign\n+\treturn a + b"}, "calc.go new 6-7 in hunk_new"},
		{"marker on a context line", Query{Path: "calc.go", Code: "+func Add(a, b int) int {"}, "calc.go new 5-5 in hunk_new"},
		{"indented markers are text, fuzzy finds them", Query{Path: "calc.go", Code: "    +\t// fixed sign\n    +\treturn a + b"}, "calc.go new 6-7 in fuzzy"},
		{"yaml list item literal", Query{Path: "ci.yaml", Code: "  - lint"}, "ci.yaml new 4-4 in hunk_new"},
		{"yaml list item with marker", Query{Path: "ci.yaml", Code: "+  - lint"}, "ci.yaml new 4-4 in hunk_new"},
		{"markdown bullets literal", Query{Path: "README.md", Code: "- sub\n- mul"}, "README.md new 6-7 in hunk_new"},
		{"markdown bullet with marker", Query{Path: "README.md", Code: "+- div"}, "README.md new 8-8 in hunk_new"},
		{"file_read prefixes", Query{Path: "calc.go", Code: "22|func Div(a, b int) (int, error) {\n23|\tif b == 0 {"}, "calc.go new 22-23 in hunk_new"},
		{"file_read prefixes with blank", Query{Path: "calc.go", Code: "25|\t}\n26|\n27|\treturn a / b, nil"}, "calc.go new 25-27 in hunk_new"},
		{"blank line inside", Query{Path: "calc.go", Code: "\t}\n\n\treturn a / b, nil"}, "calc.go new 25-27 in hunk_new"},
		{"blank line omitted", Query{Path: "calc.go", Code: "\t}\n\treturn a / b, nil"}, "calc.go new 25-27 in hunk_new"},
		{"blank lines at the ends", Query{Path: "calc.go", Code: "\n\n\treturn a + b\n\n"}, "calc.go new 7-7 in hunk_new"},
		{"partial first line", Query{Path: "calc.go", Code: "b int) (int, error) {\n\tif b == 0 {"}, "calc.go new 22-23 in hunk_new"},
		{"partial last line", Query{Path: "calc.go", Code: "if b == 0 {\n\t\treturn 0, fmt.Errorf("}, "calc.go new 23-24 in hunk_new"},
		{"partial single line", Query{Path: "calc.go", Code: `fmt.Errorf("divide by zero")`}, "calc.go new 24-24 in hunk_new"},
		{"ellipsis", Query{Path: "calc.go", Code: "func Div(a, b int) (int, error) {\n\t...\n\treturn a / b, nil"}, "calc.go new 22-27 in hunk_new"},
		{"ellipsis unicode", Query{Path: "calc.go", Code: "func Div(a, b int) (int, error) {\n…\n}"}, "calc.go new 22-25 in hunk_new"},
		{"ellipsis comment", Query{Path: "calc.go", Code: "if b == 0 {\n\t\t// ...\n\t}\n\n\treturn a / b, nil"}, "calc.go new 23-27 in hunk_new"},
		{"ellipsis at the ends", Query{Path: "calc.go", Code: "...\n\treturn a + b\n..."}, "calc.go new 7-7 in hunk_new"},
	})
}

func TestResolveSteps(t *testing.T) {
	runResolveCases(t, []resolveCase{
		{"hunk new side", Query{Path: "ci.yaml", Code: `value: "1.23"`}, "ci.yaml new 8-8 in hunk_new"},
		{"hunk old side", Query{Path: "ci.yaml", Code: `value: "1.22"`}, "ci.yaml old 7-7 in hunk_old"},
		{"old side of a deleted run", Query{Path: "calc.go", Code: "func Div(a, b int) int {\n\treturn a / b"}, "calc.go old 21-22 in hunk_old"},
		{"whole file outside hunks", Query{Path: "calc.go", Code: "func Print(x int) {\n\tfmt.Println(x)"}, "calc.go new 30-31 out whole_file"},
		{"whole file range crossing a hunk edge", Query{Path: "calc.go", Code: "func Sub(a, b int) int {\n\treturn a - b\n}"}, "calc.go new 10-12 out whole_file"},
		{"other file re-filed", Query{Path: "calc.go", Code: "  - lint"}, "ci.yaml new 4-4 in other_file"},
		{"other file old side keeps both paths", Query{Path: "README.md", Code: `const Version = "1.0"`}, "release.go (from version.go) old 4-4 in other_file"},
		{"renamed file by old path", Query{Path: "version.go", Code: `const Version = "1.1"`}, "release.go (from version.go) new 4-4 in hunk_new"},
		{"path outside the change set", Query{Path: "nowhere.go", Code: "- lint"}, "ci.yaml new 4-4 in other_file"},
		{"fuzzy", Query{Path: "calc.go", Code: `return 0, fmt.Errorf("division by zero")`}, "calc.go new 24-24 in fuzzy"},
		{"file level keeps path", Query{Path: "calc.go", Code: "nothing like this exists anywhere"}, "calc.go file file_level"},
		{"file level outside the change set", Query{Path: "docs/x.md", Code: "nothing like this exists"}, "docs/x.md file file_level"},
		{"empty code", Query{Path: "calc.go", Code: " \n\t\n"}, "calc.go file file_level"},
		{"file level of a renamed file", Query{Path: "version.go", Code: "zzz"}, "release.go (from version.go) file file_level"},
		{"path with ./", Query{Path: "./ci.yaml", Code: "- lint"}, "ci.yaml new 4-4 in hunk_new"},
		{"path from a diff header", Query{Path: "b/ci.yaml", Code: "- lint"}, "ci.yaml new 4-4 in hunk_new"},
		{"absolute path", Query{Path: "/calc.go", Code: "zzz"}, "calc.go file file_level"},
	})
}

// The old side is never reported as new: a deleted line's old number
// would land on an unrelated new line (OCR issue #1486).
func TestResolveOldSideNeverNew(t *testing.T) {
	fx := loadResolveFixture(t, "multi")
	for _, code := range []string{"\treturn a / b", "-\treturn a / b", "func Div(a, b int) int {", "Run `go test`."} {
		path := "calc.go"
		if code == "Run `go test`." {
			path = "README.md"
		}
		loc := fx.resolve(Query{Path: path, Code: code}, fx.options())
		if loc.Side != "old" || loc.Method != "hunk_old" {
			t.Errorf("Resolve(%q) = %s, want the old side", code, describeLoc(loc))
		}
		if kind, ok := fx.cs.LineKind(loc.Path, loc.Side, loc.StartLine); !ok || kind != udiff.Deleted {
			t.Errorf("Resolve(%q) = %s: line kind %q, %v; want a deleted line", code, describeLoc(loc), kind, ok)
		}
	}
}

func TestResolveRelocation(t *testing.T) {
	fx := loadResolveFixture(t, "multi")
	calls := 0
	opt := fx.options()
	opt.NoFuzzy = true
	opt.Relocate = func(_ context.Context, q Query) (string, bool) {
		calls++
		if q.Path != "calc.go" || q.Code != "the model made this up" {
			t.Errorf("Relocate got %+v", q)
		}
		return "```go\n\treturn a / b, nil\n```", true
	}
	loc := Resolve(context.Background(), Query{Path: "calc.go", Code: "the model made this up"}, fx.cs, opt)
	if got, want := describeLoc(loc), "calc.go new 27-27 in relocation"; got != want {
		t.Errorf("Resolve = %s, want %s", got, want)
	}
	if calls != 1 {
		t.Errorf("Relocate called %d times, want once", calls)
	}
}

func TestResolveRelocationFails(t *testing.T) {
	fx := loadResolveFixture(t, "multi")
	for name, reply := range map[string]struct {
		code string
		ok   bool
	}{"refused": {"", false}, "still wrong": {"made up again", true}, "empty": {"  \n", true}} {
		t.Run(name, func(t *testing.T) {
			calls := 0
			opt := fx.options()
			opt.Relocate = func(context.Context, Query) (string, bool) { calls++; return reply.code, reply.ok }
			loc := Resolve(context.Background(), Query{Path: "calc.go", Code: "made up"}, fx.cs, opt)
			if got, want := describeLoc(loc), "calc.go file file_level"; got != want || calls != 1 {
				t.Errorf("Resolve = %s after %d calls, want %s after 1", got, calls, want)
			}
		})
	}
}

func TestResolveRelocationSkipped(t *testing.T) {
	fx := loadResolveFixture(t, "multi")
	opt := fx.options()
	opt.Relocate = func(context.Context, Query) (string, bool) {
		t.Error("Relocate called")
		return "", false
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if loc := Resolve(ctx, Query{Path: "calc.go", Code: "made up"}, fx.cs, opt); !loc.FileLevel() {
		t.Errorf("cancelled context: %s, want file level", describeLoc(loc))
	}
	if loc := Resolve(context.Background(), Query{Path: "other.go", Code: "made up"}, fx.cs, opt); !loc.FileLevel() {
		t.Errorf("file outside the change set: %s, want file level", describeLoc(loc))
	}
	if loc := Resolve(context.Background(), Query{Path: "calc.go", Code: "\n \n"}, fx.cs, opt); !loc.FileLevel() {
		t.Errorf("no code: %s, want file level", describeLoc(loc))
	}
	if loc := Resolve(context.Background(), Query{Path: "calc.go", Code: "\treturn a + b"}, fx.cs, opt); loc.Method != "hunk_new" {
		t.Errorf("found snippet: %s, want no relocation", describeLoc(loc))
	}
}

func TestResolveNoNewFile(t *testing.T) {
	fx := loadResolveFixture(t, "multi")
	loc := Resolve(context.Background(), Query{Path: "calc.go", Code: "func Print(x int) {\n\tfmt.Println(x)"}, fx.cs, Options{})
	if got, want := describeLoc(loc), "calc.go file file_level"; got != want {
		t.Errorf("without NewFile: %s, want %s", got, want)
	}
	if got := describeLoc(Resolve(context.Background(), Query{Path: "x", Code: "y"}, nil, Options{})); got != "x file file_level" {
		t.Errorf("nil ChangeSet: %s", got)
	}
}

// NewFile may read from git: it is asked only when the hunks did not match.
func TestResolveNewFileLazy(t *testing.T) {
	fx := loadResolveFixture(t, "multi")
	opt := fx.options()
	fx.resolve(Query{Path: "calc.go", Code: "\treturn a + b"}, opt)
	fx.resolve(Query{Path: "calc.go", Code: "\treturn a / b"}, opt)
	if fx.reads["calc.go"] != 0 {
		t.Errorf("NewFile called %d times for snippets found in the hunks", fx.reads["calc.go"])
	}
	fx.resolve(Query{Path: "calc.go", Code: "fmt.Println(x)"}, opt)
	if fx.reads["calc.go"] != 1 {
		t.Errorf("NewFile called %d times for a whole-file match, want 1", fx.reads["calc.go"])
	}
}

// The normalised whole file is cached against the slice NewFile returns:
// another slice for the same path is read afresh.
func TestResolveWholeFileCache(t *testing.T) {
	fx := loadResolveFixture(t, "multi")
	ctx := context.Background()
	q := Query{Path: "calc.go", Code: "fmt.Println(x)"}
	first := fx.files["calc.go"]
	opt := Options{NoFuzzy: true, NewFile: func(string) ([]string, bool) { return first, true }}
	if got := describeLoc(Resolve(ctx, q, fx.cs, opt)); got != "calc.go new 31-31 out whole_file" {
		t.Fatalf("first version: %s", got)
	}
	second := append([]string{"// moved down", ""}, first...)
	opt.NewFile = func(string) ([]string, bool) { return second, true }
	if got := describeLoc(Resolve(ctx, q, fx.cs, opt)); got != "calc.go new 33-33 out whole_file" {
		t.Errorf("second version: %s", got)
	}
}
