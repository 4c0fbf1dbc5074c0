package tools

import (
	"fmt"
	"sync"
)

// Session is the state of one review task (one file or bundle): where the
// tools read, the change set's diffs, the file under review, and the
// failure streaks that disable a misbehaving tool. Set the exported fields
// before the first call; a Session is safe for concurrent calls.
type Session struct {
	// Source is where file_read, file_find and code_search read.
	Source Source
	// Diffs maps a path of the change set to that file's unified diff, for
	// file_read_diff. Add a renamed file's old path too if it should be found
	// by that name.
	Diffs map[string]string
	// File is the file under review: the default path of comments.
	File string

	mu      sync.Mutex
	streak  map[string]int
	skipped map[string]bool
	ix      *fileIndex // file_find's index when Source does not keep one
}

// Skipped reports whether the tool was disabled for the rest of the task
// after failing maxFailures times in a row.
func (s *Session) Skipped(name string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.skipped[name]
}

// record counts a call's outcome: a success resets the tool's streak, the
// third failure in a row disables it.
func (s *Session) record(name string, failed bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.streak == nil {
		s.streak = map[string]int{}
		s.skipped = map[string]bool{}
	}
	if !failed {
		s.streak[name] = 0
		return
	}
	s.streak[name]++
	if s.streak[name] >= maxFailures {
		s.skipped[name] = true
	}
}

// skippedResult is what a disabled tool answers.
func skippedResult(name string) Result {
	return errText(fmt.Sprintf("Error: %s failed %d times in a row and is disabled for the rest of this task. Continue with the other tools, or call task_done.", name, maxFailures))
}
