package udiff

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/internal/testkit/gitrepo"
)

// diffArgs is how ocr runs git diff; quotepath is varied by the tests.
func diffArgs(quotePath bool, from, to string) []string {
	return []string{"-c", "core.quotepath=" + strconv.FormatBool(quotePath), "diff", "-U3", "--find-renames",
		"--no-ext-diff", "--no-color", "--src-prefix=a/", "--dst-prefix=b/", from, to, "--"}
}

// catBlobs reads "rev:path" objects through one `git cat-file --batch`;
// missing objects map to nil.
func catBlobs(t testing.TB, dir string, specs []string) map[string][]byte {
	t.Helper()
	cmd := exec.CommandContext(context.Background(), "git", "-C", dir, "cat-file", "--batch")
	cmd.Env = gitrepo.Env()
	cmd.Stdin = strings.NewReader(strings.Join(specs, "\n") + "\n")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git cat-file --batch: %v", err)
	}
	r := bufio.NewReader(bytes.NewReader(out))
	blobs := make(map[string][]byte, len(specs))
	for _, spec := range specs {
		head, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("cat-file output for %q: %v", spec, err)
		}
		fields := strings.Fields(head)
		if len(fields) != 3 {
			blobs[spec] = nil // "<spec> missing"
			continue
		}
		size, _ := strconv.Atoi(fields[2])
		body := make([]byte, size+1)
		if _, err := io.ReadFull(r, body); err != nil {
			t.Fatalf("cat-file body for %q: %v", spec, err)
		}
		blobs[spec] = body[:size]
	}
	return blobs
}

// commitsOf lists the commits of rev with their parents, newest first.
func commitsOf(t testing.TB, dir, rev string, limit int) [][]string {
	t.Helper()
	out := gitrepo.Output(t, dir, "rev-list", "--parents", "--max-count="+strconv.Itoa(limit), rev)
	var commits [][]string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if line != "" {
			commits = append(commits, strings.Fields(line))
		}
	}
	return commits
}

// checkHistory diffs every commit against its first parent (or the empty
// tree) and checks the parsed hunks against the blobs on both sides.
func checkHistory(t *testing.T, dir string, commits [][]string, quotePath bool) {
	emptyTree := strings.TrimSpace(string(gitrepo.Output(t, dir, "hash-object", "-t", "tree", os.DevNull)))
	for _, c := range commits {
		commit, parent := c[0], emptyTree
		if len(c) > 1 {
			parent = c[1]
		}
		diff := gitrepo.Output(t, dir, diffArgs(quotePath, parent, commit)...)
		files, err := Parse(diff)
		if err != nil {
			t.Fatalf("commit %s: %v", commit, err)
		}
		names := gitrepo.Output(t, dir, "diff", "--find-renames", "--name-only", "-z", parent, commit, "--")
		if n := bytes.Count(names, []byte{0}); n != len(files) {
			t.Errorf("commit %s: parsed %d files, git diff --name-only lists %d", commit, len(files), n)
		}
		checkSides(t, dir, parent, commit, files)
	}
}

// checkSides fetches both sides of every text file and compares hunks.
func checkSides(t *testing.T, dir, parent, commit string, files []File) {
	var specs []string
	for _, f := range files {
		if f.OldPath != "" {
			specs = append(specs, parent+":"+f.OldPath)
		}
		if f.NewPath != "" {
			specs = append(specs, commit+":"+f.NewPath)
		}
	}
	blobs := catBlobs(t, dir, specs)
	for i := range files {
		f := &files[i]
		if f.Binary || f.Submodule {
			continue
		}
		where := fmt.Sprintf("commit %s file %q", commit[:8], f.Path())
		if f.OldPath != "" {
			checkSide(t, where+" old side", blobs[parent+":"+f.OldPath], f, false)
		}
		if f.NewPath != "" {
			checkSide(t, where+" new side", blobs[commit+":"+f.NewPath], f, true)
		}
	}
}

// checkSide compares one side of every hunk of f with the blob's lines,
// including the no-newline-at-end-of-file markers.
func checkSide(t *testing.T, where string, blob []byte, f *File, newSide bool) {
	text := string(blob)
	endsNL := strings.HasSuffix(text, "\n")
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if text == "" {
		lines = nil
	}
	for _, h := range f.Hunks {
		count := 0
		for _, l := range h.Lines {
			n := l.OldLine
			if newSide {
				n = l.NewLine
			}
			if n == 0 {
				continue
			}
			count++
			if n > len(lines) || lines[n-1] != l.Text {
				t.Errorf("%s line %d: parsed %q, blob has %d lines", where, n, l.Text, len(lines))
				continue
			}
			if want := n == len(lines) && !endsNL; l.NoNewline != want {
				t.Errorf("%s line %d: NoNewline = %v, want %v", where, n, l.NoNewline, want)
			}
		}
		if want := map[bool]int{false: h.OldLines, true: h.NewLines}[newSide]; count != want {
			t.Errorf("%s: hunk has %d lines on this side, header says %d", where, count, want)
		}
	}
}
