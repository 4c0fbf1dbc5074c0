package git

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"
)

// globalArgs come before every subcommand. They pin the configuration a
// user or repository may set that would change what we parse, and keep git
// from running commands named in the repository's configuration.
// https://git-scm.com/docs/git-config
func globalArgs() []string {
	return []string{
		"--no-pager",
		"-c", "core.quotepath=false",
		"-c", "core.fsmonitor=false",
		"-c", "core.hooksPath=" + os.DevNull,
		"-c", "color.ui=false",
		"-c", "diff.noprefix=false",
		"-c", "diff.mnemonicPrefix=false",
		"-c", "diff.relative=false",
		"-c", "diff.suppressBlankEmpty=false",
		"-c", "diff.submodule=short",
		"-c", "diff.algorithm=default",
		"-c", "diff.interHunkContext=0",
		"-c", "diff.orderFile=" + os.DevNull,
		"-c", "grep.column=false",
		"-c", "grep.fullName=false",
		"-c", "core.bigFileThreshold=" + strconv.Itoa(MaxDiffFileSize),
	}
}

// strippedEnv are variables that would redirect git to another repository
// or change its diff output; ocr runs git in the repository it opened.
var strippedEnv = map[string]bool{
	"GIT_DIR": true, "GIT_WORK_TREE": true, "GIT_INDEX_FILE": true,
	"GIT_COMMON_DIR": true, "GIT_PREFIX": true, "GIT_EXTERNAL_DIFF": true,
	"GIT_DIFF_OPTS": true, "GIT_PAGER": true, "PAGER": true, "LC_ALL": true,
	"GIT_TERMINAL_PROMPT": true, "GIT_OPTIONAL_LOCKS": true,
}

// gitEnv is the environment of every git process.
func gitEnv(locale string) []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if !strippedEnv[name] {
			env = append(env, kv)
		}
	}
	return append(env, "GIT_TERMINAL_PROMPT=0", "GIT_OPTIONAL_LOCKS=0",
		"GIT_PAGER=cat", "PAGER=cat", "LC_ALL="+locale)
}

// call is one git invocation.
type call struct {
	args    []string      // after the global options
	timeout time.Duration // 0 = Options.Timeout
	locale  string        // "" = C; utf8Locale for grep
	stdin   []byte
	// out, when set, receives standard output instead of the returned slice.
	out io.Writer
	// objects marks a call that reads only commits and trees: it runs as in
	// a bare repository (see objectsOnly).
	objects bool
	// trace, when set, receives git's trace2 events (see traced).
	trace *os.File
}

// maxStderr bounds the stderr kept in an *Error.
const maxStderr = 16 << 10

// run executes git in the repository and returns its standard output. A
// non-zero exit is an *Error; callers that expect one (grep's 1 = no match)
// look at ExitCode.
func (r *Repo) run(ctx context.Context, c call) ([]byte, error) {
	if err := r.acquire(ctx); err != nil {
		return nil, &Error{Args: c.args, ExitCode: -1, Err: err}
	}
	defer r.release()
	timeout := c.timeout
	if timeout <= 0 {
		timeout = r.opt.Timeout
	}
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := r.command(cctx, c.locale, r.objectsOnly(c)...)
	if c.objects && r.gitDir != "" {
		cmd.Dir = r.gitDir // git takes the current directory for the work tree
	}
	var stdout bytes.Buffer
	stderr := &capBuffer{max: maxStderr}
	cmd.Stdout, cmd.Stderr = &stdout, stderr
	if c.out != nil {
		cmd.Stdout = c.out
	}
	if c.stdin != nil {
		cmd.Stdin = bytes.NewReader(c.stdin)
	}
	if c.trace != nil {
		cmd.ExtraFiles = []*os.File{c.trace} // fd 3
		cmd.Env = append(slices.Clip(cmd.Env), "GIT_TRACE2_EVENT=3")
	}
	err := cmd.Run()
	if err == nil {
		return stdout.Bytes(), nil
	}
	return stdout.Bytes(), r.callError(ctx, cctx, c.args, timeout, stderr.String(), err)
}

// objectsOnly returns the arguments of c, run as in a bare repository (from
// the git directory, see run) when c reads only objects. The work tree's
// and the index's .gitattributes (which a pull request controls:
// "*.go -diff", "* binary") would otherwise decide what git's diff and grep
// call binary, and a file would escape review; a bare repository reads
// attributes only from $GIT_DIR/info/attributes and the user's
// core.attributesFile, which a pull request cannot change, and git decides
// binaries by content alone. (--attr-source needs git 2.40; ocr runs with
// 2.30.)
// https://git-scm.com/docs/gitattributes#_description
func (r *Repo) objectsOnly(c call) []string {
	if !c.objects || r.gitDir == "" {
		return c.args
	}
	return append([]string{"--git-dir=" + r.gitDir, "-c", "core.bare=true"}, c.args...)
}

// command builds an *exec.Cmd for git with the global options and env.
func (r *Repo) command(ctx context.Context, locale string, args ...string) *exec.Cmd {
	r.started.Add(1)
	cmd := exec.CommandContext(ctx, "git", append(globalArgs(), args...)...)
	cmd.Dir = r.dir
	cmd.Env = r.envC
	if locale == utf8Locale {
		cmd.Env = r.envUTF8
	}
	// Children that keep stdout open (remote helpers) must not hang Wait.
	cmd.WaitDelay = 2 * time.Second
	return cmd
}

// callError turns a failed run into an *Error, telling a timeout apart
// from the caller's cancellation.
func (r *Repo) callError(parent, cctx context.Context, args []string, timeout time.Duration, stderr string, err error) *Error {
	e := &Error{Args: args, ExitCode: -1, Stderr: Redact(stderr), Err: err}
	var exit *exec.ExitError
	switch {
	case parent.Err() != nil:
		e.Err = parent.Err()
	case errors.Is(cctx.Err(), context.DeadlineExceeded):
		e.Err = fmt.Errorf("%w after %s", ErrTimeout, timeout)
		r.logf("git %s: timed out after %s", args[0], timeout)
	case errors.As(err, &exit) && exit.ExitCode() >= 0:
		e.ExitCode = exit.ExitCode()
		e.Err = nil
	}
	return e
}

// exitCode is the git exit status carried by err, or -1.
func exitCode(err error) int {
	var e *Error
	if errors.As(err, &e) {
		return e.ExitCode
	}
	return -1
}

// capBuffer keeps the first max bytes written to it and drops the rest.
type capBuffer struct {
	buf bytes.Buffer
	max int
}

// Write keeps what fits under max and reports everything written, so git
// is never stopped by a full stderr.
func (b *capBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.buf.Len(); room > 0 {
		b.buf.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

// String returns what was kept.
func (b *capBuffer) String() string { return b.buf.String() }
