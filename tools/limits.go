package tools

import "time"

// Limits that keep one tool call from flooding the model's context or
// stalling the run. The numbers marked "spec" are fixed by tools-spec.md.
const (
	// readMaxLines is the most lines file_read returns per call (spec).
	readMaxLines = 500
	// readMaxChars bounds one file_read answer even when lines are long.
	readMaxChars = 100_000
	// readMaxLineChars cuts a single very long line (minified code).
	readMaxLineChars = 2_000
	// readMaxBytes is the largest file file_read loads at all.
	readMaxBytes = 64 << 20
	// binarySniff is how many leading bytes are checked for NUL, as git does.
	binarySniff = 8_000

	// diffPageChars is the size of one page of file_read_diff output.
	diffPageChars = 60_000

	// findMaxResults is the most paths file_find returns (spec).
	findMaxResults = 100

	// searchMaxCount is git grep --max-count: matches per file (spec).
	searchMaxCount = 100
	// searchMaxChars bounds one code_search answer.
	searchMaxChars = 50_000
	// searchReadBytes bounds how much git grep output is read at all: far
	// more than the answer can show, so the answer's own cut and note
	// apply, but a search for "return" over a large tree does not hold
	// megabytes in memory.
	searchReadBytes = 1 << 20
	// searchMaxLineChars cuts one matched line.
	searchMaxLineChars = 500
	// searchTimeout is the git grep deadline (spec).
	searchTimeout = 10 * time.Second
	// listTimeout bounds listing the files of the repository (spec).
	listTimeout = 10 * time.Second
	// readTimeout bounds reading one file (spec).
	readTimeout = 30 * time.Second

	// maxFailures is how many failures in a row disable a tool for the task (spec).
	maxFailures = 3
)
