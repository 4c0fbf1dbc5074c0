// Package merge rebuilds one review from the reports of a sharded scan
// (`ocr merge`), as if one run had produced it: the files and findings of
// every shard, the usage summed, the status of the whole. It refuses
// reports that do not belong together and names the shards that are
// missing, so a shard job that failed cannot pass silently.
package merge

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/ocr-ci/ocr/review"
)

// Input is one report: the file it was read from and its review.
type Input struct {
	Name   string
	Review *review.Review
}

// Result is the merged review and the shards whose reports were not given.
type Result struct {
	Review *review.Review
	// Missing are the indices (from 1) of the shards not given; when any
	// is, the review is partial and its errors name them.
	Missing []int
	// Total is N of the shards merged (0 for one report of an unsharded run).
	Total int
}

// Reviews merges in. It refuses reports of different commits, modes,
// versions or configurations, reports of a different shard count, a shard
// given twice, and several reports of unsharded runs.
func Reviews(in []Input) (Result, error) {
	if len(in) == 0 {
		return Result{}, fmt.Errorf("no report to merge: give the JSON reports of the shards (--report json=PATH in each)")
	}
	if err := sameRun(in); err != nil {
		return Result{}, err
	}
	total, err := checkShards(in)
	if err != nil {
		return Result{}, err
	}
	out := combine(in)
	res := Result{Review: out, Total: total, Missing: missing(in, total)}
	for _, i := range res.Missing {
		out.Errors = append(out.Errors, fmt.Sprintf(
			"shard %d of %d is missing: its report was not given to ocr merge (did its job fail?), so its files are not in this review", i, total))
	}
	out.Status = status(in, len(res.Missing) > 0)
	return res, nil
}

// sameRun refuses reports that are not parts of one run.
func sameRun(in []Input) error {
	first := in[0]
	for _, o := range in[1:] {
		for _, f := range []struct{ what, a, b string }{
			{"tools", first.Review.Tool, o.Review.Tool},
			{"modes", first.Review.Mode, o.Review.Mode},
			{"commits", first.Review.Base + ".." + first.Review.Head, o.Review.Base + ".." + o.Review.Head},
			{"ocr versions", first.Review.Version, o.Review.Version},
			{"configurations", first.Review.Config, o.Review.Config},
		} {
			if f.a != f.b {
				return fmt.Errorf("%s and %s are of different %s (%s and %s): merge the reports of one scan, "+
					"run with the same flags on the same commit", first.Name, o.Name, f.what, describe(f.a), describe(f.b))
			}
		}
	}
	return nil
}

func describe(s string) string {
	s = strings.TrimPrefix(s, "..")
	if s == "" {
		return `""`
	}
	return s
}

// checkShards returns N, refusing mixed counts, repeats and several
// unsharded reports.
func checkShards(in []Input) (int, error) {
	seen := map[int]string{}
	total := 0
	for _, o := range in {
		s := o.Review.Shard
		switch {
		case s == nil && len(in) > 1:
			return 0, fmt.Errorf("%s is not the report of a shard (no --shard I/N): merge only the reports of one sharded scan", o.Name)
		case s == nil:
			continue
		case total != 0 && s.Total != total:
			return 0, fmt.Errorf("%s is shard %d of %d, but %s is of %d shards: merge the reports of one sharded scan", o.Name, s.Index, s.Total, in[0].Name, total)
		case seen[s.Index] != "":
			return 0, fmt.Errorf("shard %d of %d is given twice (%s and %s)", s.Index, s.Total, seen[s.Index], o.Name)
		}
		total, seen[s.Index] = s.Total, o.Name
	}
	return total, nil
}

func missing(in []Input, total int) []int {
	var out []int
	for i := 1; i <= total; i++ {
		if !slices.ContainsFunc(in, func(o Input) bool { return o.Review.Shard.Index == i }) {
			out = append(out, i)
		}
	}
	return out
}

// combine puts the shards' files, findings, rules, usage and errors into
// one review, in the order one run would have them.
func combine(in []Input) *review.Review {
	ordered := slices.Clone(in)
	slices.SortFunc(ordered, func(a, b Input) int { return cmp.Compare(shardIndex(a), shardIndex(b)) })
	first := ordered[0].Review
	out := &review.Review{Tool: first.Tool, Version: first.Version, Mode: first.Mode, Base: first.Base, Head: first.Head,
		Config: first.Config, Comments: []review.Comment{}, Started: first.Started, Finished: first.Finished}
	seenRule := map[string]bool{}
	for _, o := range ordered {
		r := o.Review
		out.Comments = append(out.Comments, r.Comments...)
		out.Files = append(out.Files, r.Files...)
		out.Errors = append(out.Errors, r.Errors...)
		out.Dropped, out.Filtered, out.Usage = out.Dropped+r.Dropped, out.Filtered+r.Filtered, out.Usage.Add(r.Usage)
		out.Cost = addCost(out.Cost, r.Cost)
		out.Started, out.Finished = earliest(out.Started, r.Started), latest(out.Finished, r.Finished)
		for _, rl := range r.Rules {
			if !seenRule[rl.ID] {
				seenRule[rl.ID], out.Rules = true, append(out.Rules, rl)
			}
		}
	}
	// One run lists files in path order (git's) and findings most severe first.
	slices.SortStableFunc(out.Files, func(a, b review.FileCoverage) int { return strings.Compare(a.Path, b.Path) })
	slices.SortStableFunc(out.Comments, func(a, b review.Comment) int {
		return cmp.Or(cmp.Compare(b.Severity.Rank(), a.Severity.Rank()), strings.Compare(a.Path, b.Path), cmp.Compare(a.StartLine, b.StartLine))
	})
	return out
}

func shardIndex(o Input) int {
	if o.Review.Shard == nil {
		return 0
	}
	return o.Review.Shard.Index
}

// status is complete when every shard was given and complete, failed when
// every shard given failed, partial otherwise.
func status(in []Input, incomplete bool) review.Status {
	complete, failed := !incomplete, true
	for _, o := range in {
		complete = complete && o.Review.Status == review.StatusComplete
		failed = failed && o.Review.Status == review.StatusFailed
	}
	switch {
	case complete:
		return review.StatusComplete
	case failed:
		return review.StatusFailed
	}
	return review.StatusPartial
}

func addCost(a, b *review.Cost) *review.Cost {
	switch {
	case a == nil && b == nil:
		return nil
	case a == nil:
		c := *b
		return &c
	case b == nil:
		return a
	}
	return &review.Cost{Total: a.Total + b.Total, Prices: a.Prices}
}

// Read reads the reports at paths with read (the configuration's
// ReadFile, where a relative path starts) and decode (jsonreport.Decode).
func Read(paths []string, read func(path string) ([]byte, error), decode func([]byte) (*review.Review, error)) ([]Input, error) {
	if len(paths) == 0 {
		return nil, errors.New("no report to merge: give the JSON reports of the shards, ocr merge [--report KIND=PATH] shard-1.json shard-2.json")
	}
	var in []Input
	for _, p := range paths {
		data, err := read(p)
		if err != nil {
			return nil, fmt.Errorf("could not read the report %w", err)
		}
		r, err := decode(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		in = append(in, Input{Name: p, Review: r})
	}
	return in, nil
}

// Text names the shards merged for a log line: " (4 shards)", or "".
func (r Result) Text() string {
	if r.Total == 0 {
		return ""
	}
	return fmt.Sprintf(" (%d shards)", r.Total)
}
