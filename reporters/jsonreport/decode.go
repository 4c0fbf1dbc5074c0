package jsonreport

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/ocr-ci/ocr/review"
)

// Decode reads a report Reporter wrote back into the review it was
// written from (all but the model's reasoning, which is never written):
// `ocr merge` rebuilds one review from the reports of a sharded scan. A
// report of another format_version, or not ocr's, is refused.
func Decode(data []byte) (*review.Review, error) {
	var j jsonReview
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&j); err != nil {
		return nil, fmt.Errorf("not an ocr JSON report (--report json): %w", err)
	}
	if j.FormatVersion != 1 || j.Tool == "" {
		return nil, fmt.Errorf("not an ocr JSON report of format_version 1 (format_version %d, tool %q): write it with this version's --report json", j.FormatVersion, j.Tool)
	}
	r := &review.Review{Tool: j.Tool, Version: j.Version, Mode: j.Mode, Base: j.Base, Head: j.Head, Status: j.Status,
		Comments: []review.Comment{}, Dropped: j.Dropped, Filtered: j.Filtered, Outvoted: j.Outvoted, Passes: j.Passes, Usage: j.Usage, Cost: j.Cost,
		Errors: j.Errors, Shard: j.Shard, Config: j.Config}
	var err error
	if r.Started, err = parseTime(j.Started); err != nil {
		return nil, err
	}
	if r.Finished, err = parseTime(j.Finished); err != nil {
		return nil, err
	}
	for _, c := range j.Comments {
		r.Comments = append(r.Comments, c.comment())
	}
	for _, f := range j.Files {
		r.Files = append(r.Files, review.FileCoverage{Path: f.Path, OldPath: f.OldPath, Status: f.Status,
			Additions: f.Additions, Deletions: f.Deletions, Reviewed: f.Reviewed, Reason: review.Reason(f.Reason), Detail: f.Detail})
	}
	for _, rl := range j.Rules {
		r.Rules = append(r.Rules, review.Rule{ID: rl.ID, Title: rl.Title, Description: rl.Description, Help: rl.Help, Tags: rl.Tags})
	}
	return r, nil
}

func (c jsonComment) comment() review.Comment {
	return review.Comment{
		Location: review.Location{Path: c.Path, OldPath: c.OldPath, Side: review.Side(c.Side), StartLine: c.StartLine,
			EndLine: c.EndLine, InHunk: c.InDiff, Method: review.Method(c.Method), Candidates: nonEmpty(c.Candidates)},
		Content: c.Content, ExistingCode: c.ExistingCode, QuotedCode: c.QuotedCode, Suggestion: c.Suggestion,
		Category: review.Category(c.Category), Severity: review.Severity(c.Severity), RuleID: c.RuleID,
		Fingerprint: c.Fingerprint, Suppressed: c.Suppressed, Votes: c.Votes,
	}
}

func parseTime(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("started/finished %q is not an RFC 3339 time: %w", s, err)
	}
	return t, nil
}

// nonEmpty is nil for an empty list, as the review had it before encoding.
func nonEmpty(xs []int) []int {
	if len(xs) == 0 {
		return nil
	}
	return xs
}
