package review

import (
	"cmp"
	"slices"
)

// SortBySeverity orders comments most severe first, then by path, then by
// start line; the sort is stable, so equal comments keep their order.
func SortBySeverity(comments []Comment) {
	slices.SortStableFunc(comments, func(a, b Comment) int {
		return cmp.Or(cmp.Compare(b.Severity.Rank(), a.Severity.Rank()),
			cmp.Compare(a.Path, b.Path), cmp.Compare(a.StartLine, b.StartLine))
	})
}

// Cap keeps at most perFile comments per path and perRun in all (a limit of
// 0 or less means none), preferring the most severe, and returns the kept
// comments ordered like SortBySeverity with the number dropped (for the
// summary). The input is not modified.
func Cap(comments []Comment, perFile, perRun int) (kept []Comment, dropped int) {
	sorted := slices.Clone(comments)
	SortBySeverity(sorted)
	perPath := map[string]int{}
	for _, c := range sorted {
		if (perFile > 0 && perPath[c.Path] >= perFile) || (perRun > 0 && len(kept) >= perRun) {
			dropped++
			continue
		}
		perPath[c.Path]++
		kept = append(kept, c)
	}
	return kept, dropped
}

// Default caps for --max-comments: enough for a real defect list, few
// enough that a noisy run cannot bury a pull request.
const (
	DefaultMaxPerFile = 10
	DefaultMaxPerRun  = 50
)
