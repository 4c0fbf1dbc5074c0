package main

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
)

// gitEnv makes commits reproducible and independent of the global config.
var gitEnv = []string{
	"GIT_AUTHOR_NAME=bench", "GIT_AUTHOR_EMAIL=bench@localhost",
	"GIT_COMMITTER_NAME=bench", "GIT_COMMITTER_EMAIL=bench@localhost",
	"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
}

// git runs one git command in dir and returns its stdout.
func git(ctx context.Context, dir string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir, "-c", "commit.gpgsign=false", "-c", "core.autocrlf=false"}, args...)...)
	cmd.Env = append(os.Environ(), gitEnv...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("git %s in %s: %w: %s", strings.Join(args, " "), dir, err, strings.TrimSpace(errb.String()))
	}
	return out.Bytes(), nil
}

// blobReader reads blobs through one long-lived `git cat-file --batch`.
type blobReader struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

func newBlobReader(ctx context.Context, dir string) (*blobReader, error) {
	cmd := exec.CommandContext(ctx, "git", "-C", dir, "cat-file", "--batch")
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("start cat-file: %w", err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("start cat-file: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start cat-file: %w", err)
	}
	return &blobReader{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<16)}, nil
}

// read returns the content of rev:path; ok is false when it does not exist.
func (b *blobReader) read(rev, path string) ([]byte, bool, error) {
	if _, err := fmt.Fprintf(b.in, "%s:%s\n", rev, path); err != nil {
		return nil, false, fmt.Errorf("cat-file: %w", err)
	}
	head, err := b.out.ReadString('\n')
	if err != nil {
		return nil, false, fmt.Errorf("cat-file: %w", err)
	}
	f := strings.Fields(head)
	if len(f) != 3 {
		return nil, false, nil // "<rev> missing"
	}
	n, err := strconv.Atoi(f[2])
	if err != nil {
		return nil, false, fmt.Errorf("cat-file header %q: %w", head, err)
	}
	buf := make([]byte, n+1)
	if _, err := io.ReadFull(b.out, buf); err != nil {
		return nil, false, fmt.Errorf("cat-file: %w", err)
	}
	return buf[:n], f[1] == "blob", nil
}

// close ends cat-file (closing its input makes it exit). The exit status of
// a reader whose answers were all read says nothing more, so it is dropped.
func (b *blobReader) close() {
	_ = b.in.Close()
	_ = b.cmd.Wait()
}
