// Package payonce is the benchmark of what a review costs as a pull
// request lives on (issue 32, "pay once"): a pull request of 20 files is
// reviewed in full, then a one-file push, a rebase onto a moved base, a
// rebase with a one-file edit, a re-run and a merge of the base branch
// with a one-file edit ("Update branch") are reviewed, each through the
// whole ocr command against the GitHub fake and the scripted model. It
// reports each run's model requests and prompt tokens against the full
// review's, and the duplicate comments across the sequence.
//
//	go test ./bench/payonce -run TestPayOnce -v
//
// The test fails when a target is missed: re-run and rebase 0 requests;
// the runs with a one-file edit at most 10% of the full review's prompt
// tokens and one file asked about; every run reports every finding; no
// finding posted twice. `go test ./...` runs it
// (-short reviews 10 files instead of 20).
package payonce
