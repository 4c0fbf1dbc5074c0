package git

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"runtime"
)

// traced runs c with git's trace2 event stream on a pipe and returns,
// besides c's output, the version git reports in its first event
// ("git version 2.39.5"), or "" when it reported none (git before 2.22,
// no pipe, Windows, which passes no extra descriptors). Open learns the
// version this way instead of starting `git version` as well.
// https://git-scm.com/docs/api-trace2#_event_format
func (r *Repo) traced(ctx context.Context, c call) (out []byte, version string, err error) {
	if runtime.GOOS == "windows" {
		out, err = r.run(ctx, c)
		return out, "", err
	}
	pr, pw, perr := os.Pipe()
	if perr != nil {
		out, err = r.run(ctx, c)
		return out, "", err
	}
	found := make(chan string, 1)
	go func() {
		found <- traceVersion(pr)
		_ = pr.Close()
	}()
	c.trace = pw
	out, err = r.run(ctx, c)
	_ = pw.Close() // git has exited: the reader sees the end of the stream
	return out, <-found, err
}

// traceVersion reads trace2 events until the "version" event and returns
// "git version <exe>"; it drains the rest so that git never blocks on the
// pipe.
func traceVersion(events io.Reader) string {
	defer func() { _, _ = io.Copy(io.Discard, events) }()
	sc := bufio.NewScanner(events)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		var e struct{ Event, Exe string }
		if json.Unmarshal(sc.Bytes(), &e) == nil && e.Event == "version" && e.Exe != "" {
			return "git version " + e.Exe
		}
	}
	return ""
}

// learnVersion records the version traced reported, or runs `git version`
// when it reported none; either way a git older than MinVersion fails
// with ErrGitUnusable.
func (r *Repo) learnVersion(ctx context.Context, version string) error {
	if version == "" {
		return r.checkVersion(ctx)
	}
	return r.setVersion(version)
}
