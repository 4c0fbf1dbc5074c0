package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/ocr-ci/ocr/internal/testkit/gitrepo"
	"github.com/ocr-ci/ocr/internal/testkit/golden"
)

// The small dataset: repositories of one Go file whose change adds
// functions; in a positive change one or two of them carry a planted
// issue (the expected comment), a clean change adds only sound code.
const (
	miniDir      = "testdata/mini"
	miniPositive = 40
	miniClean    = 20
)

// planted is an issue: the line that carries it and the expert's comment.
type planted struct {
	Body     []string // the function body; Line indexes the faulty line
	Line     int
	Note     string
	Category string
}

var issues = []planted{
	{[]string{"\tn := len(xs)", "\ttotal := sum(xs)", "\treturn total / n"}, 2,
		"Division by n panics when xs is empty: n is zero.", "Code Defect"},
	{[]string{"\tp := m[key]", "\treturn *p"}, 1,
		"Dereferencing p panics when key is missing from the map: the lookup returns a nil pointer.", "Code Defect"},
	{[]string{"\ts := 0", "\tfor i := 0; i <= len(xs); i++ {", "\t\ts += xs[i]", "\t}", "\treturn s"}, 1,
		"The loop runs one past the end of xs (<= instead of <) and panics with an index out of range.", "Code Defect"},
	{[]string{"\tf, _ := os.Open(path)", "\tdefer f.Close()", "\treturn io.ReadAll(f)"}, 0,
		"The error from os.Open is ignored, so f is nil when the file is missing and reading it panics.", "Code Defect"},
	{[]string{"\tq := \"SELECT id FROM users WHERE name = '\" + name + \"'\"", "\treturn db.Query(q)"}, 0,
		"Building the SQL query by concatenating name allows SQL injection; use a parameterised query.", "Security Vulnerability"},
	{[]string{"\ttime.Sleep(d * time.Second)", "\treturn nil"}, 0,
		"d is already a time.Duration: multiplying it by time.Second sleeps a billion times longer than meant.", "Code Defect"},
	{[]string{"\tif err := save(v); err != nil {", "\t\treturn nil", "\t}", "\treturn v"}, 1,
		"The error from save is swallowed: returning nil hides the failure from the caller.", "Code Defect"},
	{[]string{"\tfor _, u := range users {", "\t\tgo func() { seen = append(seen, u.ID) }()", "\t}", "\treturn seen"}, 1,
		"Appending to seen from several goroutines without a lock is a data race.", "Code Defect"},
}

var sound = [][]string{
	{"\treturn a + b"},
	{"\tif len(s) == 0 {", "\t\treturn \"\"", "\t}", "\treturn strings.ToUpper(s[:1]) + s[1:]"},
	{"\tout := make([]int, 0, len(xs))", "\tfor _, x := range xs {", "\t\tif x > 0 {", "\t\t\tout = append(out, x)", "\t\t}", "\t}", "\treturn out"},
	{"\tkeys := make([]string, 0, len(m))", "\tfor k := range m {", "\t\tkeys = append(keys, k)", "\t}", "\tsort.Strings(keys)", "\treturn keys"},
	{"\tif n < 2 {", "\t\treturn n", "\t}", "\treturn n * 2"},
}

// miniRepo is one generated repository: its file before and after, and
// the comments expected on the change.
type miniRepo struct {
	Name       string
	Base, Head string
	Expected   []comment
}

// generate builds change k's files; positive changes plant issues.
func generate(k int, positive bool) miniRepo {
	r := rand.New(rand.NewPCG(uint64(k), 7))
	name := fmt.Sprintf("svc%02d", k)
	base := []string{"package " + name, "", "// Version is the service's version.", "const Version = 1", ""}
	head := append([]string{}, base...)
	head[3] = "const Version = 2"
	m := miniRepo{Name: name}
	nIssues := 0
	if positive {
		nIssues = 1 + r.IntN(2)
	}
	funcs := 2 + r.IntN(2)
	for f := range funcs + nIssues {
		body := sound[r.IntN(len(sound))]
		var iss *planted
		if f < nIssues {
			iss = &issues[(k+f*3)%len(issues)]
			body = iss.Body
		}
		head = append(head, fmt.Sprintf("// F%d is step %d of the service.", f, f), fmt.Sprintf("func F%d() {", f))
		if iss != nil {
			line := len(head) + iss.Line + 1
			m.Expected = append(m.Expected, comment{Note: iss.Note, Path: name + "/" + name + ".go", Side: "right",
				FromLine: line, ToLine: line, Category: iss.Category})
		}
		head = append(append(head, body...), "}", "")
	}
	m.Base, m.Head = strings.Join(base, "\n")+"\n", strings.Join(head, "\n")
	return m
}

// commitRepo makes repos/bench/NAME with the base and head commits, with
// fixed names and dates so that the commits' ids never change: one
// fast-import (gitrepo.Import) after init.
func commitRepo(t testing.TB, repos string, m miniRepo) (base, head string) {
	t.Helper()
	dir := filepath.Join(repos, "bench", m.Name)
	file := m.Name + "/" + m.Name + ".go"
	ids := gitrepo.Import(t, dir, gitrepo.History{Identity: "bench <bench@example.com>", Commits: []gitrepo.Change{
		{Message: "commit 0", Files: map[string]string{file: m.Base}},
		{Message: "commit 1", Files: map[string]string{file: m.Head}},
	}})
	return ids[0], ids[1]
}

// miniSet is the small dataset's repositories, built once per test binary
// (both tests that need them only read them) and removed by TestMain.
type miniSet struct {
	once     sync.Once
	repos    string
	pos, neg []sample
	err      error
}

// mini is the package's one miniSet.
var mini miniSet

// TestMain removes the small dataset's repositories after the tests.
func TestMain(m *testing.M) {
	code := m.Run()
	if mini.repos != "" {
		_ = os.RemoveAll(mini.repos)
	}
	os.Exit(code)
}

// miniClones returns the directory holding every repository of the small
// dataset, with the samples the commits give; the repositories are real
// git repositories, built on the first call.
func miniClones(t *testing.T) (string, []sample, []sample) {
	t.Helper()
	mini.once.Do(func() {
		mini.repos, mini.err = os.MkdirTemp("", "ocr-quality-mini-*")
		if mini.err == nil {
			// A build that fails the test leaves this error for the others.
			mini.err = errors.New("the small dataset's repositories failed to build (see the first test that used them)")
			mini.pos, mini.neg = buildMini(t, mini.repos)
			mini.err = nil
		}
	})
	if mini.err != nil {
		t.Fatal(mini.err)
	}
	return mini.repos, mini.pos, mini.neg
}

// buildMini commits every repository of the small dataset under repos.
func buildMini(t testing.TB, repos string) (pos, neg []sample) {
	t.Helper()
	for k := 1; k <= miniPositive+miniClean; k++ {
		m := generate(k, k <= miniPositive)
		base, head := commitRepo(t, repos, m)
		s := sample{PR: "https://github.com/bench/" + m.Name + "/pull/1", Source: base, Target: head, Language: "Go",
			Comments: m.Expected}
		if k <= miniPositive {
			pos = append(pos, s)
		} else {
			s.Comments = []comment{}
			neg = append(neg, s)
		}
	}
	return pos, neg
}

// TestMiniDatasetIsCommitted: the committed dataset is what the generator
// and git make (run with -update to rewrite it).
func TestMiniDatasetIsCommitted(t *testing.T) {
	t.Parallel()
	_, pos, neg := miniClones(t)
	for name, want := range map[string][]sample{"positive_samples.json": pos, "negative_samples.json": neg} {
		path := filepath.Join(miniDir, name)
		if golden.Update() {
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
			enc.SetIndent("", "  ")
			if err := enc.Encode(want); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		got, err := readSamples(path)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s differs from what the generator makes: run go test ./bench/quality -run TestMiniDatasetIsCommitted -update", path)
		}
	}
}
