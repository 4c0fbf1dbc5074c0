package git

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
)

// catFile is the Repo's one long-lived `git cat-file --batch` process.
// Requests are serialised by lock (a channel so that waiting honours the
// caller's context); the process starts on first use and is restarted when
// it dies or its output stops making sense.
type catFile struct {
	repo   *Repo
	lock   chan struct{}
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *bufio.Reader
	stderr *capBuffer
}

// object is one answer from cat-file.
type object struct {
	oid  string // object name ("" for dangling, loop, notdir, symlink)
	kind string // blob, tree, commit, tag; or dangling, loop, notdir, symlink
	data []byte
}

// errProtocol marks output that cannot be parsed; the process is restarted.
var errProtocol = errors.New("unexpected output from git cat-file --batch")

// get asks for one object ("<ref>:<path>"); a missing object is ErrNotFound.
func (c *catFile) get(ctx context.Context, spec string) (object, error) {
	if err := ctx.Err(); err != nil {
		return object{}, err // select below would pick at random between ready cases
	}
	select {
	case c.lock <- struct{}{}:
	case <-ctx.Done():
		return object{}, ctx.Err()
	}
	defer func() { <-c.lock }()
	var err error
	for attempt := 0; attempt < 2; attempt++ {
		if c.cmd == nil {
			if err = c.start(); err != nil {
				return object{}, err
			}
		}
		var obj object
		obj, err = c.request(ctx, spec)
		if err == nil || errors.Is(err, ErrNotFound) || errors.Is(err, ErrTooLarge) {
			return obj, err
		}
		err = c.failed(err)
		if ctx.Err() != nil {
			return object{}, ctx.Err()
		}
		c.repo.logf("git cat-file --batch stopped (%v); restarting it", err)
	}
	return object{}, err
}

// start launches the process. Symlinks inside the tree are followed;
// ones leading outside it come back as "symlink".
func (c *catFile) start() error {
	cmd := c.repo.command(context.Background(), "", "cat-file", "--batch", "--follow-symlinks")
	cmd.WaitDelay = 0
	c.stderr = &capBuffer{max: maxStderr}
	cmd.Stderr = c.stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return fmt.Errorf("could not start git cat-file: %w", err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return fmt.Errorf("could not start git cat-file: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return &Error{Args: cmd.Args[len(globalArgs())+1:], ExitCode: -1, Err: err}
	}
	c.cmd, c.stdin, c.stdout = cmd, stdin, bufio.NewReaderSize(stdout, 64<<10)
	return nil
}

// request writes one line and reads its answer. If ctx ends meanwhile the
// process is killed, which unblocks the read.
func (c *catFile) request(ctx context.Context, spec string) (object, error) {
	proc := c.cmd.Process
	stop := context.AfterFunc(ctx, func() { _ = proc.Kill() })
	defer stop()
	if _, err := io.WriteString(c.stdin, spec+"\n"); err != nil {
		return object{}, err
	}
	header, err := c.stdout.ReadString('\n')
	if err != nil {
		return object{}, err
	}
	header = strings.TrimSuffix(header, "\n")
	switch header {
	case spec + " missing":
		return object{}, ErrNotFound
	case spec + " ambiguous":
		return object{}, fmt.Errorf("%q is ambiguous: %w", spec, ErrNotFound)
	}
	oid, kind, size, err := parseHeader(header)
	if err != nil {
		return object{}, err
	}
	if size > MaxReadSize {
		// Only the header was read: end the process rather than stream
		// (and hold) a blob that may inflate to gigabytes from a few
		// packed megabytes. The next request starts a new one.
		c.stopLocked(true)
		return object{}, fmt.Errorf("%s is %d bytes, over the %d MiB ocr reads: %w", spec, size, MaxReadSize>>20, ErrTooLarge)
	}
	data := make([]byte, size+1)
	if _, err := io.ReadFull(c.stdout, data); err != nil {
		return object{}, err
	}
	if data[size] != '\n' {
		return object{}, errProtocol
	}
	return object{oid: oid, kind: kind, data: data[:size]}, nil
}

// parseHeader reads "<oid> <type> <size>" or "<dangling|loop|notdir|symlink> <size>".
func parseHeader(h string) (oid, kind string, size int, err error) {
	f := strings.Split(h, " ")
	switch {
	case len(f) == 3:
		oid, kind = f[0], f[1]
	case len(f) == 2 && (f[0] == "dangling" || f[0] == "loop" || f[0] == "notdir" || f[0] == "symlink"):
		kind = f[0]
	default:
		return "", "", 0, fmt.Errorf("%w: %q", errProtocol, h)
	}
	size, err = strconv.Atoi(f[len(f)-1])
	if err != nil || size < 0 {
		return "", "", 0, fmt.Errorf("%w: %q", errProtocol, h)
	}
	return oid, kind, size, nil
}

// failed stops a process whose request failed and returns the error to
// report, with git's stderr when there is some.
func (c *catFile) failed(err error) error {
	args := c.cmd.Args[len(globalArgs())+1:]
	c.stopLocked(true)
	return &Error{Args: args, ExitCode: -1, Stderr: Redact(c.stderr.String()), Err: err}
}

// stopLocked ends the process; the caller holds lock.
func (c *catFile) stopLocked(kill bool) {
	if c.cmd == nil {
		return
	}
	_ = c.stdin.Close() // cat-file exits at end of input
	if kill {
		_ = c.cmd.Process.Kill()
	}
	_ = c.cmd.Wait()
	c.cmd, c.stdin, c.stdout = nil, nil, nil
}

// close stops the process once no request is in flight.
func (c *catFile) close() error {
	c.lock <- struct{}{}
	defer func() { <-c.lock }()
	c.stopLocked(false)
	return nil
}
