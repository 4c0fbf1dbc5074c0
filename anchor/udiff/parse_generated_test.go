package udiff

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/internal/testkit/gitrepo"
)

// TestParseGeneratedHistory replaces the check over this repository's own
// history with a hermetic one: a seeded generator writes 80 commits of
// mixed changes (edits, inserts and deletes at random places, adds,
// deletes, renames with and without edits, binary files, CRLF files, mode
// changes, names with spaces, quotes and non-ASCII letters) and every
// commit's parsed diff is checked against the blobs on both sides.
func TestParseGeneratedHistory(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	g := &histGen{rnd: rand.New(rand.NewPCG(12, 2026)), files: map[string]*genFile{}}
	var h gitrepo.History
	for i := range genCommits {
		h.Commits = append(h.Commits, g.step(i))
	}
	gitrepo.Import(t, dir, h)
	commits := commitsOf(t, dir, "HEAD", 200)
	if len(commits) != genCommits {
		t.Fatalf("generated %d commits, want %d", len(commits), genCommits)
	}
	// The history must hold every kind of change it is meant to test.
	log := string(gitrepo.Output(t, dir, "log", "-M", "--summary", "--numstat", "--format=%H"))
	for what, mark := range map[string]string{"a rename": "rename ", "a mode change": "mode change", "a binary change": "-\t-\t",
		"a deletion": "delete mode", "a CRLF file": ".bat", "a non-ASCII name": "\\", "a quoted name": `"q\"uote.txt`} {
		if !strings.Contains(log, mark) {
			t.Errorf("the generated history has no %s (%q)", what, mark)
		}
	}
	// quotepath=true is covered by TestParseHistory; once is enough here.
	checkHistory(t, dir, commits, false)
}

// genCommits is the length of the generated history.
const genCommits = 80

// genFile is one file of the generated history.
type genFile struct {
	lines  []string
	eol    string
	binary bool
	exec   bool
}

// histGen makes the history's commits: each step's changes over the last.
type histGen struct {
	rnd   *rand.Rand
	files map[string]*genFile
	n     int
	cur   gitrepo.Change  // the commit being made
	exec  map[string]bool // the modes of cur's files
}

var genNames = []string{"main.go", "pkg/util.go", "pkg/util_test.go", "docs/read me.md", "ünï/ðata.txt", "日本/コード.py",
	`q"uote.txt`, "tab\tname.txt", "scripts/run.sh", "web/app.js", "deep/a/b/c/d.rs", "win/dos.bat", "assets/logo.png", "x.bin"}

var genWords = []string{"func", "return", "if err != nil {", "}", "x := y + 1", "// comment", "for i := range n {",
	"fmt.Println(x)", "", "\tindented", "var total int", "case 3:", "default:", "ünïcødé line", "end"}

func (g *histGen) line() string {
	return genWords[g.rnd.IntN(len(genWords))] + fmt.Sprintf(" %d", g.rnd.IntN(1000))
}

// step makes commit i of the history.
func (g *histGen) step(i int) gitrepo.Change {
	g.cur = gitrepo.Change{Message: fmt.Sprintf("step %d", i), Files: map[string]string{}}
	g.exec = map[string]bool{}
	ops := 1 + g.rnd.IntN(4)
	for range ops {
		g.op()
	}
	g.n = i
	for p, x := range g.exec {
		if x {
			g.cur.Exec = append(g.cur.Exec, p)
		}
	}
	return g.cur
}

func (g *histGen) paths() []string {
	var out []string
	for p := range g.files {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

func (g *histGen) pick() (string, *genFile) {
	ps := g.paths()
	if len(ps) == 0 {
		return "", nil
	}
	p := ps[g.rnd.IntN(len(ps))]
	return p, g.files[p]
}

// op applies one random change to the commit being made.
func (g *histGen) op() {
	p, f := g.pick()
	switch k := g.rnd.IntN(10); {
	case f == nil || k == 0:
		g.add()
	case k <= 4 && !f.binary:
		g.edit(f)
		g.write(p, f)
	case k == 5 && len(g.files) > 3:
		g.remove(p)
	case k == 6:
		g.rename(p, f, g.rnd.IntN(2) == 0)
	case k == 7:
		f.exec = !f.exec
		g.write(p, f)
	case k == 8 && f.binary:
		f.lines = append(f.lines, string([]byte{0, byte(g.rnd.IntN(256)), 1}))
		g.write(p, f)
	default:
		f.lines = nil
		for range 1 + g.rnd.IntN(30) {
			f.lines = append(f.lines, g.line())
		}
		g.write(p, f)
	}
}

func (g *histGen) add() {
	name := genNames[g.rnd.IntN(len(genNames))]
	if _, ok := g.files[name]; ok {
		name = fmt.Sprintf("new/%d-%s", g.rnd.IntN(1000), filepath.Base(name))
	}
	f := &genFile{eol: "\n"}
	switch {
	case strings.HasSuffix(name, ".png") || strings.HasSuffix(name, ".bin"):
		f.binary = true
		f.lines = []string{"\x89PNG\x00\x01", string([]byte{0, 2, 3})}
	case strings.HasSuffix(name, ".bat"):
		f.eol = "\r\n"
	}
	for range 5 + g.rnd.IntN(60) {
		if !f.binary {
			f.lines = append(f.lines, g.line())
		}
	}
	g.files[name] = f
	g.write(name, f)
}

// edit replaces, inserts or deletes a few runs of lines.
func (g *histGen) edit(f *genFile) {
	for range 1 + g.rnd.IntN(3) {
		if len(f.lines) == 0 {
			f.lines = append(f.lines, g.line())
			continue
		}
		at := g.rnd.IntN(len(f.lines))
		n := min(1+g.rnd.IntN(4), len(f.lines)-at)
		switch g.rnd.IntN(3) {
		case 0:
			for j := range n {
				f.lines[at+j] = g.line()
			}
		case 1:
			f.lines = slices.Insert(f.lines, at, g.line(), g.line())
		default:
			f.lines = slices.Delete(f.lines, at, at+n)
		}
	}
}

func (g *histGen) remove(p string) {
	delete(g.files, p)
	delete(g.cur.Files, p)
	g.cur.Remove = append(g.cur.Remove, p)
}

func (g *histGen) rename(p string, f *genFile, edit bool) {
	to := fmt.Sprintf("moved/%d/%s", g.rnd.IntN(100), filepath.Base(p))
	if _, ok := g.files[to]; ok {
		return
	}
	g.remove(p)
	if edit && !f.binary {
		g.edit(f)
	}
	g.files[to] = f
	g.write(to, f)
}

func (g *histGen) write(p string, f *genFile) {
	body := strings.Join(f.lines, f.eol)
	if len(f.lines) > 0 && g.rnd.IntN(5) > 0 {
		body += f.eol // sometimes no newline at the end of the file
	}
	g.cur.Files[p], g.exec[p] = body, f.exec
}
