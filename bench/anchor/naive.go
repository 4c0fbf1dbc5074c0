package main

import (
	"strings"

	"github.com/ocr-ci/ocr/anchor/udiff"
)

// naiveResult is where OCR v1.12.4's strategy puts a comment: line numbers
// without a side (consumers read them as new-file lines); 0 when unmatched.
type naiveResult struct {
	start, end int
	oldSide    bool // matched on deleted lines: old numbers shown as new
}

// naive is OCR's anchoring (reference/ocr.md §5.2–5.4), for comparison:
// trim, strip one "+" then one "-", drop blank snippet lines, then take the
// first consecutive exact run in the hunks' new side, their old side, then
// the whole new file without its blank lines.
func naive(f *udiff.File, newFile []string, code string) naiveResult {
	var target []string
	for _, l := range strings.Split(code, "\n") {
		if n := naiveNorm(l); n != "" {
			target = append(target, n)
		}
	}
	if len(target) == 0 || f == nil {
		return naiveResult{}
	}
	for _, old := range []bool{false, true} {
		for _, h := range f.Hunks {
			texts, nums := naiveHunk(h, old)
			if s, e, ok := firstRun(texts, nums, target); ok {
				return naiveResult{start: s, end: e, oldSide: old}
			}
		}
	}
	var texts []string
	var nums []int
	for i, l := range newFile {
		if n := naiveNorm(l); n != "" {
			texts, nums = append(texts, n), append(nums, i+1)
		}
	}
	s, e, _ := firstRun(texts, nums, target)
	return naiveResult{start: s, end: e}
}

// naiveHunk is one side of a hunk; blank lines are kept as "".
func naiveHunk(h udiff.Hunk, old bool) ([]string, []int) {
	var texts []string
	var nums []int
	for _, l := range h.Lines {
		switch {
		case old && l.Kind != udiff.Added:
			texts, nums = append(texts, naiveNorm(l.Text)), append(nums, l.OldLine)
		case !old && l.Kind != udiff.Deleted:
			texts, nums = append(texts, naiveNorm(l.Text)), append(nums, l.NewLine)
		}
	}
	return texts, nums
}

func naiveNorm(s string) string {
	s = strings.TrimSpace(s)
	s = strings.TrimPrefix(s, "+")
	s = strings.TrimPrefix(s, "-")
	return strings.TrimSpace(s)
}

func firstRun(texts []string, nums []int, target []string) (int, int, bool) {
	for i := 0; i+len(target) <= len(texts); i++ {
		if equalAt(texts, i, target) {
			return nums[i], nums[i+len(target)-1], true
		}
	}
	return 0, 0, false
}

func equalAt(texts []string, i int, target []string) bool {
	if i+len(target) > len(texts) {
		return false
	}
	for j, t := range target {
		if texts[i+j] != t {
			return false
		}
	}
	return true
}
