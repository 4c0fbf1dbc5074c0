// Package payonce is the benchmark of what a review costs as a pull
// request lives on (issue 32, "pay once"): a pull request of 20 files is
// reviewed in full, then a one-file push, a rebase onto a moved base, a
// rebase with a one-file edit and a re-run are reviewed, each through the
// whole ocr command against the GitHub fake and the scripted model. It
// reports each run's model requests and prompt tokens against the full
// review's, and the duplicate comments across the sequence.
//
//	go test ./bench/payonce -run TestPayOnce -v
//
// The test fails when a target is missed: re-run and rebase 0 requests;
// the one-file push and the rebase with an edit at most 10% of the full
// review's prompt tokens; no finding posted twice. `go test ./...` runs it
// (-short reviews 10 files instead of 20).
package payonce
