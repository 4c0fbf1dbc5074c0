package gitrepo

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// History is a whole repository history for Import: its commits in order,
// the branch HEAD names afterwards and who commits.
type History struct {
	Commits []Change
	// Head is the branch of the history HEAD names after the import
	// ("" : main).
	Head string
	// Identity is the author and committer, "Name <email>" ("" : the
	// helpers' own, Test <test@example.com>).
	Identity string
	// Checkout fills the index and the work tree from HEAD (one more git
	// process); without it both stay empty, which suits a test that reads
	// the repository only through commits. A test that commits on top of
	// the history (Commit stages the work tree) needs it.
	Checkout bool
}

// Change is one commit of a History. Every commit is dated like RunFixed's,
// so the same history always gets the same ids.
type Change struct {
	// Branch is the branch it is committed on ("" : main).
	Branch string
	// From is the first parent when Branch has no commit yet in this
	// history: a branch of the history or Mark(i) of an earlier commit. The
	// first commit of a branch without From is a root commit.
	From string
	// Merge are further parents, as From.
	Merge   []string
	Message string
	// Files are written over the parent's tree (path → content); a
	// content starting with "->" is a symlink to the rest, as WriteFiles.
	Files map[string]string
	// Exec are paths of Files written executable (mode 100755).
	Exec []string
	// Remove are paths deleted from the parent's tree.
	Remove []string
	// Gitlinks are submodule entries (path → commit id, mode 160000), as
	// `git update-index --add --cacheinfo 160000,ID,PATH` stages them.
	Gitlinks map[string]string
	// Tags are annotated tags on the commit (each message: its name), as
	// `git tag -a NAME -m NAME`.
	Tags []string
}

// Mark names the i-th commit (from 0) of the history being imported, for
// From and Merge.
func Mark(i int) string { return ":" + strconv.Itoa(i+1) }

// fixedTime is the date of fixedDates as git stores it.
const fixedTime = "1767225600 +0000"

// Import makes a repository in dir (an empty or a new directory) holding
// h, with two git processes (init and fast-import; three with h.Checkout)
// however long the history, and returns the commits' ids in h's order.
func Import(t testing.TB, dir string, h History) []string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	Run(t, dir, "init", "-q", "--template=")
	marks := filepath.Join(dir, ".git", "ocr-import-marks")
	stream, err := h.stream()
	if err != nil {
		t.Fatalf("gitrepo: %v", err)
	}
	fastImport(t, dir, stream, marks)
	ids := readMarks(t, marks, len(h.Commits))
	if h.Head != "" && h.Head != "main" {
		head := []byte("ref: refs/heads/" + h.Head + "\n")
		if err := os.WriteFile(filepath.Join(dir, ".git", "HEAD"), head, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if h.Checkout {
		Run(t, dir, "reset", "-q", "--hard")
	}
	return ids
}

// fastImport runs one `git fast-import` on stream, writing the commits'
// marks to marks.
func fastImport(t testing.TB, dir string, stream []byte, marks string) {
	t.Helper()
	args := append(append([]string{}, config...), "fast-import", "--quiet", "--done", "--export-marks="+marks)
	cmd := exec.CommandContext(context.Background(), "git", args...)
	cmd.Dir, cmd.Env, cmd.Stdin = dir, Env(), bytes.NewReader(stream)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git fast-import: %v\n%s", err, out)
	}
}

// readMarks reads the ids of marks :1 to :n and removes the marks file.
func readMarks(t testing.TB, path string, n int) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("gitrepo: reading fast-import's marks: %v", err)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	ids := make([]string, n)
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		mark, id, _ := strings.Cut(line, " ")
		if i, err := strconv.Atoi(strings.TrimPrefix(mark, ":")); err == nil && i >= 1 && i <= n {
			ids[i-1] = id
		}
	}
	if i := slices.Index(ids, ""); i >= 0 {
		t.Fatalf("gitrepo: fast-import gave commit %d no id:\n%s", i, data)
	}
	return ids
}

// stream is h in git fast-import's format
// (https://git-scm.com/docs/git-fast-import#_commands).
func (h History) stream() ([]byte, error) {
	who := h.Identity
	if who == "" {
		who = "Test <test@example.com>"
	}
	var b bytes.Buffer
	begun := map[string]bool{}
	for i, c := range h.Commits {
		branch := cmp.Or(c.Branch, "main")
		c.From, c.Merge = ref(c.From, begun), refs(c.Merge, begun)
		if err := c.write(&b, i, branch, who, !begun[branch]); err != nil {
			return nil, fmt.Errorf("commit %d (%q): %w", i, c.Message, err)
		}
		begun[branch] = true
		for _, tag := range c.Tags {
			fmt.Fprintf(&b, "tag %s\nfrom %s\ntagger %s %s\n", tag, Mark(i), who, fixedTime)
			data(&b, tag+"\n")
		}
	}
	b.WriteString("done\n")
	return b.Bytes(), nil
}

// ref is how fast-import names a parent: a branch of this history by its
// full ref name, anything else (a mark, an id) as it is.
func ref(name string, branches map[string]bool) string {
	if branches[name] {
		return "refs/heads/" + name
	}
	return name
}

func refs(names []string, branches map[string]bool) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = ref(n, branches)
	}
	return out
}

// write adds commit i to b; first says that it begins its branch.
func (c Change) write(b *bytes.Buffer, i int, branch, who string, first bool) error {
	if c.From != "" && !first {
		return fmt.Errorf("from %q on branch %s, which has commits already", c.From, branch)
	}
	fmt.Fprintf(b, "commit refs/heads/%s\nmark %s\nauthor %s %s\ncommitter %s %s\n", branch, Mark(i), who, fixedTime, who, fixedTime)
	msg := c.Message
	if !strings.HasSuffix(msg, "\n") {
		msg += "\n"
	}
	data(b, msg)
	if c.From != "" {
		fmt.Fprintf(b, "from %s\n", c.From)
	}
	for _, m := range c.Merge {
		fmt.Fprintf(b, "merge %s\n", m)
	}
	for _, p := range sorted(c.Remove) {
		fmt.Fprintf(b, "D %s\n", quote(p))
	}
	paths := make([]string, 0, len(c.Files))
	for p := range c.Files {
		paths = append(paths, p)
	}
	for _, p := range sorted(paths) {
		mode, content := "100644", c.Files[p]
		if target, ok := strings.CutPrefix(content, "->"); ok {
			mode, content = "120000", target
		} else if slices.Contains(c.Exec, p) {
			mode = "100755"
		}
		fmt.Fprintf(b, "M %s inline %s\n", mode, quote(p))
		data(b, content)
	}
	for _, p := range sorted(slices.Collect(maps.Keys(c.Gitlinks))) {
		fmt.Fprintf(b, "M 160000 %s %s\n", c.Gitlinks[p], quote(p))
	}
	b.WriteString("\n")
	return nil
}

// data writes a fast-import data block of s.
func data(b *bytes.Buffer, s string) {
	fmt.Fprintf(b, "data %d\n%s\n", len(s), s)
}

// quote writes a path as a C-style quoted string, which fast-import reads
// whatever the path holds (spaces, quotes, newlines, non-ASCII bytes).
func quote(p string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(p); i++ {
		switch c := p[i]; {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20 || c == 0x7f:
			fmt.Fprintf(&b, "\\%03o", c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func sorted(s []string) []string { return slices.Sorted(slices.Values(s)) }
