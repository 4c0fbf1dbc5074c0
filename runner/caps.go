package runner

import (
	"fmt"

	"github.com/ocr-ci/ocr/internal/git"
	"github.com/ocr-ci/ocr/internal/review"
)

// Default caps: generous for a normal pull request (tens of files, a diff of
// a few MiB, a few hundred thousand tokens), they bound what a hostile one
// can cost: memory (a PR of many ~30 MB text files), requests (100,000 tiny
// files became 13,000 groups) and tokens. A fork's pull request, whose
// author is not trusted, gets lower ones. docs/reference.md lists them.
const (
	defaultMaxDiffMB = 128
	defaultMaxFiles  = 300
	defaultMaxTokens = 5_000_000
	forkMaxFiles     = 100
	forkMaxTokens    = 1_000_000
)

// forkCaps lowers the caps the user did not set, for a fork's pull request.
func forkCaps(cfg *Config) {
	setIfZero(&cfg.MaxFiles, forkMaxFiles)
	setIfZero(&cfg.MaxTokensBudget, forkMaxTokens)
}

// diffBudget is the diff budget in bytes of parser cost; 0 means none.
func diffBudget(cfg *Config) int64 {
	if cfg.MaxDiffMB <= 0 {
		return 0
	}
	return int64(cfg.MaxDiffMB) << 20
}

// parseWithin parses a diff cut to the budget and records the files whose
// diff was left out, with the line counts git's output gave.
func (ch *Change) parseWithin(raw string, cuts []git.Cut, err error) error {
	if err := ch.parse(raw, err); err != nil {
		return err
	}
	for _, c := range cuts {
		if c.Index >= len(ch.Files) {
			return fmt.Errorf("could not parse the diff: %d files, but file %d was cut (a bug: please report it)", len(ch.Files), c.Index)
		}
		f := &ch.Files[c.Index]
		f.Additions, f.Deletions = c.Additions, c.Deletions
		if ch.OverBudget == nil {
			ch.OverBudget = map[string]int64{}
		}
		ch.OverBudget[f.Path()] = c.Bytes
	}
	return nil
}

// budgetDetail explains a file the diff budget left out that would have
// been reviewed: the review falls short of it.
const budgetDetail = "the diff budget (--max-diff-mb) was spent before this file"

// markBudget explains the files the diff budget left out; a file whose diff
// is too large by itself (--max-file-tokens) would not have been reviewed
// anyway and keeps the plain too_large.
func markBudget(files []review.FileCoverage, over map[string]int64, maxFileTokens int) []review.FileCoverage {
	for i := range files {
		if n, ok := over[files[i].Path]; ok && files[i].Reason == ReasonTooLarge && n/4 <= int64(maxFileTokens) {
			files[i].Detail = budgetDetail
		}
	}
	return files
}

// shortOfCaps reports whether a cap left out a file that would have been
// reviewed: the review is then partial, not complete (a hostile pull
// request must not hide a file behind 300 others and still pass).
func shortOfCaps(files []review.FileCoverage) bool {
	for _, f := range files {
		if f.Reason == ReasonTooMany || f.Reason == ReasonTooLarge && f.Detail == budgetDetail {
			return true
		}
	}
	return false
}

// capFiles keeps at most max files reviewed, in the selection's order; the
// others are not reviewed, reason too_many. max <= 0 means no cap.
func capFiles(files []review.FileCoverage, max int) []review.FileCoverage {
	if max <= 0 {
		return files
	}
	n := 0
	for i := range files {
		if !files[i].Reviewed {
			continue
		}
		if n++; n > max {
			files[i].Reviewed, files[i].Reason = false, ReasonTooMany
			files[i].Detail = fmt.Sprintf("over the cap of %d files reviewed per run (--max-files)", max)
		}
	}
	return files
}

// setIfZero sets an unset cap; a negative one means "none" and is kept.
func setIfZero(v *int, d int) {
	if *v == 0 {
		*v = d
	}
}
