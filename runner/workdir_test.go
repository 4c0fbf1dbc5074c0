package runner

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/reporters"
)

// TestRelativePathsStartFromCommandDir: --repo, the --output file and a
// --rule settings file given relative start from Command.Dir, not from the
// process's working directory (this package's folder, itself inside a git
// repository, so a wrong start reviews the wrong tree and writes here).
func TestRelativePathsStartFromCommandDir(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	r.write("a.go", "package a\n")
	r.write("b.go", "package a\n\nfunc B() {}\n")
	r.commit("one")
	r.write("ci/rule.json", `{"exclude": ["a.go"]}`)

	var out, errb strings.Builder
	c := &Command{Stdout: &out, Stderr: &errb, sleep: noSleep, LookupEnv: testEnv{}.lookup, Dir: r.dir}
	code := c.Main(context.Background(), []string{"ocr", "review", "--preview", "--format", "json",
		"--repo", ".", "--commit", "HEAD", "--rule", "ci/rule.json", "--output", "out/preview.json"})
	if code != reporters.ExitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if _, err := os.Stat(filepath.Join("out", "preview.json")); err == nil {
		t.Errorf("--output was written in the process's working directory")
	}
	p := decodePreview(t, readFile(t, filepath.Join(r.dir, "out", "preview.json")))
	got := map[string]bool{}
	for _, f := range p.Files {
		got[f.Path] = f.Reviewed
	}
	if len(got) != 2 || !got["b.go"] {
		t.Errorf("--repo . did not review Command.Dir's repository: %+v", p.Files)
	}
	if reviewed, ok := got["a.go"]; !ok || reviewed {
		t.Errorf("--rule ci/rule.json was not read from Command.Dir (a.go should be excluded): %+v", p.Files)
	}
}
