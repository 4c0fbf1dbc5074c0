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

// gitEnv keeps the benchmark (and ocr under it) independent of the
// machine's git configuration.
var gitEnv = []string{
	"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=" + os.DevNull,
	"GIT_AUTHOR_NAME=bench", "GIT_AUTHOR_EMAIL=bench@localhost",
	"GIT_COMMITTER_NAME=bench", "GIT_COMMITTER_EMAIL=bench@localhost",
}

// git runs git in dir with stdin and returns its trimmed output.
func git(ctx context.Context, dir string, stdin io.Reader, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir, cmd.Stdin = dir, stdin
	cmd.Env = append(os.Environ(), gitEnv...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("git %s: %w: %s", strings.Join(args, " "), err, errb.Bytes())
	}
	return strings.TrimSpace(out.String()), nil
}

// origin is the generated upstream repository.
type origin struct {
	dir  string
	base string // main's tip: the pull request's base.sha
	head string // feature's tip: the pull request's head.sha
}

// makeOrigin builds a bare origin repository of shape s under tmp.
func makeOrigin(ctx context.Context, tmp string, s shape) (origin, error) {
	o := origin{dir: filepath.Join(tmp, "origin.git")}
	if _, err := git(ctx, tmp, nil, "-c", "init.defaultBranch=main", "init", "-q", "--bare", o.dir); err != nil {
		return o, err
	}
	pr, pw := io.Pipe()
	go func() { pw.CloseWithError(writeHistory(pw, s)) }()
	if _, err := git(ctx, o.dir, pr, "fast-import", "--quiet"); err != nil {
		return o, err
	}
	var err error
	if o.base, err = git(ctx, o.dir, nil, "rev-parse", "refs/heads/main"); err != nil {
		return o, err
	}
	o.head, err = git(ctx, o.dir, nil, "rev-parse", "refs/heads/feature")
	return o, err
}

// clone clones the feature branch into dir, with depth 1 when shallow (as
// actions/checkout does by default).
func (o origin) clone(ctx context.Context, dir string, shallow bool) error {
	args := []string{"clone", "-q", "--branch", "feature"}
	if shallow {
		args = append(args, "--depth", "1")
	}
	_, err := git(ctx, filepath.Dir(dir), nil, append(args, "file://"+o.dir, dir)...)
	return err
}

// shim is a directory holding a `git` script that logs each invocation
// (bash's microsecond clock and the arguments) and execs the real git.
type shim struct {
	dir, log string
}

// makeShim writes the shim under tmp; gitPath is the git found on PATH.
func makeShim(tmp, gitPath string) (shim, error) {
	s := shim{dir: filepath.Join(tmp, "shim"), log: filepath.Join(tmp, "shim.log")}
	script := fmt.Sprintf("#!/bin/bash\nprintf '%%s %%s\\n' \"$EPOCHREALTIME\" \"$*\" >> %q\nexec %q \"$@\"\n", s.log, gitPath)
	if err := os.MkdirAll(s.dir, 0o755); err != nil {
		return s, err
	}
	return s, os.WriteFile(filepath.Join(s.dir, "git"), []byte(script), 0o755)
}

// buildOCR builds the ocr binary from the module root into tmp.
func buildOCR(ctx context.Context, tmp string) (string, error) {
	out, err := exec.CommandContext(ctx, "go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	mod := strings.TrimSpace(string(out))
	if mod == "" || mod == os.DevNull {
		return "", fmt.Errorf("not inside the ocr module: run from /work/main (go run ./bench/ci)")
	}
	bin := filepath.Join(tmp, "ocr")
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/ocr")
	cmd.Dir = filepath.Dir(mod)
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build ./cmd/ocr: %w\n%s", err, b)
	}
	return bin, nil
}
