package runner

import (
	"flag"
	"os"
	"runtime"
	"strconv"
	"testing"

	"github.com/ocr-ci/ocr/internal/testkit/gitrepo"
)

// fixture is a repository that many tests start from, built once per test
// binary (gitrepo.Template) and copied into each: a test gets its own real
// repository without paying again the git processes that built it.
type fixture struct {
	tpl *gitrepo.Template
	ids map[string]string // what build returned: commit ids by name
}

// fixtures are removed by TestMain after the tests.
var fixtures []*fixture

// newFixture returns the fixture that build makes in a new repository
// (on main) the first time a test copies it; build returns the commit ids
// the tests need, by name.
func newFixture(build func(r *testRepo) map[string]string) *fixture {
	f := &fixture{}
	f.tpl = gitrepo.NewTemplate(func(t testing.TB, dir string) {
		gitrepo.Run(t, dir, "init", "-q", "--template=")
		f.ids = build(&testRepo{t: t, dir: dir})
	})
	fixtures = append(fixtures, f)
	return f
}

// copy returns t's own copy of the repository and the build's commit ids.
func (f *fixture) copy(t *testing.T) (*testRepo, map[string]string) {
	t.Helper()
	dir := f.tpl.Copy(t)
	return &testRepo{t: t, dir: dir}, f.ids
}

// TestMain runs twice GOMAXPROCS tests at once unless -test.parallel is
// given: they mostly wait (on git processes, loopback HTTP, a deadline),
// so more tests than CPUs in flight keep the CPUs busy. Then it removes
// the fixtures' repositories.
func TestMain(m *testing.M) {
	flag.Parse()
	if !flagGiven("test.parallel") {
		if err := flag.Set("test.parallel", strconv.Itoa(2*runtime.GOMAXPROCS(0))); err != nil {
			panic(err)
		}
	}
	code := m.Run()
	for _, f := range fixtures {
		f.tpl.Remove()
	}
	os.Exit(code)
}

// flagGiven reports whether the flag name was set on the command line.
func flagGiven(name string) bool {
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}
