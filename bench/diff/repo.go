package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// size is the shape of the generated change.
type size struct {
	files        int // files changed
	linesPerFile int // lines in each file
	changed      int // lines replaced in each file (each is one - and one +)
}

// gitEnv keeps the benchmark independent of the machine's git config.
var gitEnv = []string{
	"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=" + os.DevNull,
	"GIT_AUTHOR_NAME=bench", "GIT_AUTHOR_EMAIL=bench@localhost",
	"GIT_COMMITTER_NAME=bench", "GIT_COMMITTER_EMAIL=bench@localhost",
}

// runGit runs git in dir and returns its output.
func runGit(ctx context.Context, dir string, args ...string) ([]byte, error) {
	var stdout bytes.Buffer
	err := runGitTo(ctx, dir, &stdout, args...)
	return stdout.Bytes(), err
}

// runGitTo runs git in dir with its output going to stdout.
func runGitTo(ctx context.Context, dir string, stdout io.Writer, args ...string) error {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), gitEnv...)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = stdout, &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("git %s: %w: %s", strings.Join(args, " "), err, stderr.Bytes())
	}
	return nil
}

// buildRepo creates a repository in dir with two commits, "base" and
// "head", where head replaces s.changed lines in each of s.files files.
func buildRepo(ctx context.Context, dir string, s size) error {
	if _, err := runGit(ctx, dir, "-c", "init.defaultBranch=main", "init", "-q"); err != nil {
		return err
	}
	for _, rev := range []string{"base", "head"} {
		if err := writeFiles(dir, s, rev == "head"); err != nil {
			return err
		}
		if _, err := runGit(ctx, dir, "add", "-A"); err != nil {
			return err
		}
		if _, err := runGit(ctx, dir, "-c", "commit.gpgsign=false", "commit", "-q", "-m", rev); err != nil {
			return err
		}
		if _, err := runGit(ctx, dir, "tag", rev); err != nil {
			return err
		}
	}
	return nil
}

// writeFiles writes every file, changed or not.
func writeFiles(dir string, s size, changed bool) error {
	for i := 0; i < s.files; i++ {
		path := filepath.Join(dir, fmt.Sprintf("pkg%03d", i%100), fmt.Sprintf("file_%05d.go", i))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, fileContent(i, s, changed), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// fileContent is source-like text of about 45 bytes a line; the changed
// version rewrites two blocks of s.changed/2 lines.
func fileContent(file int, s size, changed bool) []byte {
	var b bytes.Buffer
	block := s.changed / 2
	for l := 1; l <= s.linesPerFile; l++ {
		inBlock := l > 10 && l <= 10+block || l > 70 && l <= 70+block
		if changed && inBlock {
			fmt.Fprintf(&b, "\tresult%d := transform(input%d, \"new-%d\", opts)\n", l, l, file)
			continue
		}
		fmt.Fprintf(&b, "\tresult%d := compute(input%d, \"value-%d-%d\")\n", l, l, file, l)
	}
	return b.Bytes()
}
