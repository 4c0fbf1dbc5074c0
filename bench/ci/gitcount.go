package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"
)

// gitCount is the git processes of one run, from two sources: the PATH
// shim sees every git that ocr itself spawns; trace2 (GIT_TRACE2_EVENT,
// inherited by every git process) also sees the processes git spawns for
// itself (upload-pack, index-pack, rev-list during fetch), which run from
// git's exec path and never pass through the shim.
type gitCount struct {
	direct int            // shim log lines: git processes ocr spawned
	byCmd  map[string]int // direct, by subcommand
	all    int            // trace2 start events: every git process
	nested map[string]int // trace2 starts of git's own children, by name
	// fetches is the number of direct `git fetch` processes; fetchFrom and
	// fetchTo bound the history completion: the first fetch's start to the
	// start of the first other git process after the last fetch.
	fetches            int
	fetchFrom, fetchTo time.Duration
	calls              []stamped // direct invocations, global options dropped
}

// countGit reads the shim log and the trace2 event file of a run.
func countGit(shimLog, trace string, start time.Time) (gitCount, error) {
	c := gitCount{byCmd: map[string]int{}, nested: map[string]int{}}
	if err := c.readShim(shimLog, start); err != nil {
		return c, err
	}
	return c, c.readTrace(trace)
}

func (c *gitCount) readShim(path string, start time.Time) error {
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return nil // no git at all
	}
	if err != nil {
		return err
	}
	defer func() { _ = f.Close() }() // read only: closing loses nothing
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	afterFetch := false
	for sc.Scan() {
		stamp, args, _ := strings.Cut(sc.Text(), " ")
		when, err := epochMicros(stamp)
		if err != nil {
			return fmt.Errorf("shim log line %q: %w", sc.Text(), err)
		}
		at := when.Sub(start)
		cmd := subcommand(strings.Fields(args))
		c.direct++
		c.byCmd[cmd]++
		c.calls = append(c.calls, stamped{at: at, line: fromSubcommand(strings.Fields(args), cmd)})
		switch {
		case cmd == "fetch":
			if c.fetches == 0 {
				c.fetchFrom = at
			}
			c.fetches++
			afterFetch = true
		case afterFetch:
			c.fetchTo, afterFetch = at, false
		}
	}
	return sc.Err()
}

// epochMicros parses bash's $EPOCHREALTIME, seconds with six decimals,
// without the rounding of a float.
func epochMicros(s string) (time.Time, error) {
	secs, frac, _ := strings.Cut(s, ".")
	sec, err := strconv.ParseInt(secs, 10, 64)
	if err != nil {
		return time.Time{}, err
	}
	frac = (frac + "000000")[:6]
	us, err := strconv.ParseInt(frac, 10, 64)
	return time.Unix(sec, us*1000), err
}

// subcommand is the first argument that is not a global option.
func subcommand(args []string) string {
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "-c" || a == "-C" || a == "--shallow-file" || a == "--git-dir" || a == "--work-tree" || a == "--namespace":
			i++ // an option with a separate value
		case strings.HasPrefix(a, "-"):
		default:
			return a
		}
	}
	return "?"
}

// fromSubcommand is args from the subcommand cmd on, at most 120 bytes.
func fromSubcommand(args []string, cmd string) string {
	for i, a := range args {
		if a == cmd {
			args = args[i:]
			break
		}
	}
	s := strings.Join(args, " ")
	if len(s) > 120 {
		s = s[:117] + "..."
	}
	return s
}

// traceEvent is the part of a trace2 event line that is needed here
// (https://git-scm.com/docs/api-trace2#_event_format).
type traceEvent struct {
	Event string   `json:"event"`
	SID   string   `json:"sid"`
	Argv  []string `json:"argv"`
}

func (c *gitCount) readTrace(path string) error {
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return err
	}
	defer func() { _ = f.Close() }() // read only: closing loses nothing
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	for sc.Scan() {
		var ev traceEvent
		if json.Unmarshal(sc.Bytes(), &ev) != nil || ev.Event != "start" {
			continue
		}
		c.all++
		if strings.Contains(ev.SID, "/") { // a child's sid extends its parent's
			name := "?"
			if len(ev.Argv) > 0 {
				name = strings.TrimPrefix(ev.Argv[0], "git-")
				if len(ev.Argv) > 1 && (ev.Argv[0] == "git" || strings.HasSuffix(ev.Argv[0], "/git")) {
					name = subcommand(ev.Argv[1:])
				}
			}
			c.nested[name]++
		}
	}
	return sc.Err()
}

// histogram formats counts as "name n, ..." with the largest first.
func histogram(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if m[keys[i]] != m[keys[j]] {
			return m[keys[i]] > m[keys[j]]
		}
		return keys[i] < keys[j]
	})
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return strings.Join(parts, ", ")
}
