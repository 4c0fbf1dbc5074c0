package main

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// synthConfig sizes the synthetic repository.
type synthConfig struct {
	files, commits int
	goroot         string
	rng            *rand.Rand
}

// lang is what the editor needs to know about a file's language.
type lang struct {
	indent  string
	comment string
	block   []string // a typical inserted block; "%d" is a counter
	wrap    [2]string
}

var langs = map[string]lang{
	".go":   {"\t", "// ", []string{"if err := check%d(v); err != nil {", "\treturn fmt.Errorf(\"check %d: %w\", err)", "}"}, [2]string{"if debug {", "}"}},
	".py":   {"    ", "# ", []string{"if value%d is None:", "    raise ValueError(\"missing value %d\")"}, [2]string{"if DEBUG:", ""}},
	".yaml": {"  ", "# ", []string{"- name: step-%d", "  run: make test-%d"}, [2]string{"extra:", ""}},
	".md":   {"", "", []string{"- item %d", "- see section %d"}, [2]string{"", ""}},
}

// sources lists candidate files from GOROOT (and the system Python's
// standard library for more Python) grouped by extension.
func sources(goroot string) map[string][]string {
	out := map[string][]string{}
	// The walk skips what it cannot read (the callback never fails), so it
	// returns no error.
	_ = filepath.WalkDir(goroot, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		ext := filepath.Ext(p)
		if ext == ".yml" {
			ext = ".yaml"
		}
		if _, ok := langs[ext]; ok && !strings.Contains(p, "/testdata/") {
			out[ext] = append(out[ext], p)
		}
		return nil
	})
	py, _ := filepath.Glob("/usr/lib/python3*/*.py")
	out[".py"] = append(out[".py"], py...)
	for _, v := range out {
		sort.Strings(v)
	}
	return out
}

// pick chooses n readable files of 40–800 lines from the candidates.
func pick(rng *rand.Rand, cands []string, n int) map[string][]string {
	out := map[string][]string{}
	for tries := 0; len(out) < n && tries < 50*n && len(cands) > 0; tries++ {
		p := cands[rng.IntN(len(cands))]
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
		if len(lines) >= 40 && len(lines) <= 800 {
			out[p] = lines
		}
	}
	return out
}

// synthRepo creates a repository in dir with cfg.commits commits of
// realistic edits to real Go, Python, YAML and Markdown files.
func synthRepo(ctx context.Context, dir string, cfg synthConfig) error {
	if _, err := git(ctx, dir, "init", "-q", "-b", "main", "."); err != nil {
		return err
	}
	src := sources(cfg.goroot)
	files := map[string][]string{}
	share := []struct {
		ext string
		n   int
	}{{".go", cfg.files / 2}, {".py", cfg.files / 6}, {".yaml", cfg.files / 6}, {".md", cfg.files / 6}}
	for _, sh := range share {
		ext := sh.ext
		for p, lines := range pick(cfg.rng, src[ext], max(sh.n, 1)) {
			name := strings.TrimPrefix(ext, ".") + "/" + strings.ReplaceAll(strings.TrimPrefix(p, cfg.goroot+"/"), "/", "_")
			if ext == ".yaml" && !strings.HasSuffix(name, ".yaml") {
				name = strings.TrimSuffix(name, filepath.Ext(name)) + ".yaml"
			}
			files[name] = lines
		}
	}
	crlf(files)
	var stream bytes.Buffer
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	writeCommit(&stream, 1, "initial import", files, names, "")
	ed := editor{rng: cfg.rng}
	for c := 0; c < cfg.commits; c++ {
		changed, removed := ed.commitEdits(files)
		writeCommit(&stream, c+2, fmt.Sprintf("change %d", c+1), files, changed, removed)
	}
	cmd := exec.CommandContext(ctx, "git", "-C", dir, "fast-import", "--quiet")
	cmd.Env = append(os.Environ(), gitEnv...)
	cmd.Stdin = &stream
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("git fast-import: %w: %s", err, out)
	}
	return nil
}

// writeCommit appends one commit to a git fast-import stream: the named
// files with their current content, and the removal of removed.
func writeCommit(w *bytes.Buffer, mark int, msg string, files map[string][]string, names []string, removed string) {
	fmt.Fprintf(w, "commit refs/heads/main\nmark :%d\ncommitter bench <bench@localhost> %d +0000\ndata %d\n%s\n",
		mark, 1700000000+mark*60, len(msg), msg)
	if mark > 1 {
		fmt.Fprintf(w, "from :%d\n", mark-1)
	}
	if removed != "" {
		fmt.Fprintf(w, "D %s\n", removed)
	}
	for _, n := range names {
		content := strings.Join(files[n], "\n") + "\n"
		fmt.Fprintf(w, "M 100644 inline %s\ndata %d\n%s\n", n, len(content), content)
	}
}

// crlf gives one Markdown file Windows line endings, as real repositories
// sometimes have.
func crlf(files map[string][]string) {
	names := make([]string, 0, len(files))
	for n := range files {
		if strings.HasSuffix(n, ".md") {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return
	}
	sort.Strings(names)
	for i, l := range files[names[0]] {
		files[names[0]][i] = l + "\r"
	}
}
