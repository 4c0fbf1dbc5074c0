// Package jsonreport writes ocr's own JSON report (not named json, which
// would shadow encoding/json).
package jsonreport

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/ocr-ci/ocr/reporters"
	"github.com/ocr-ci/ocr/reporters/sarif"
	"github.com/ocr-ci/ocr/review"
)

// Reporter writes the review in the stable shape documented in
// docs/json-output.md. Every key is always present; the model's reasoning
// (Comment.Thinking) is never included.
type Reporter struct {
	W io.Writer
}

var _ reporters.Reporter = (*Reporter)(nil)

// jsonReview is the documented top-level object (format_version 1).
type jsonReview struct {
	FormatVersion int           `json:"format_version"`
	Tool          string        `json:"tool"`
	Version       string        `json:"version"`
	Status        review.Status `json:"status"`
	Mode          string        `json:"mode"`
	Base          string        `json:"base"`
	Head          string        `json:"head"`
	Comments      []jsonComment `json:"comments"`
	Files         []jsonFile    `json:"files"`
	Dropped       int           `json:"dropped"`
	Filtered      int           `json:"filtered"`
	// Outvoted and Passes are present only for a review of several passes
	// (--passes): the findings the vote left out, each pass's usage and cost.
	Outvoted int           `json:"outvoted,omitempty"`
	Passes   []review.Pass `json:"passes,omitempty"`
	Usage    review.Usage  `json:"usage"`
	// Cost is present only when prices were given (OCR_PRICE_*).
	Cost   *review.Cost `json:"cost,omitempty"`
	Errors []string     `json:"errors"`
	// Shard is null unless the run was one part of a sharded scan.
	Shard *review.Shard `json:"shard"`
	// Config fingerprints the settings ("" when not recorded).
	Config string `json:"config"`
	// Rules are the review rules of the reviewed files (SARIF's rules).
	Rules    []jsonRule `json:"rules"`
	Started  string     `json:"started"`
	Finished string     `json:"finished"`
}

type jsonRule struct {
	ID          string   `json:"id"`
	Title       string   `json:"title"`
	Description string   `json:"description"`
	Help        string   `json:"help"`
	Tags        []string `json:"tags"`
}

type jsonComment struct {
	Path         string `json:"path"`
	OldPath      string `json:"old_path"`
	Side         string `json:"side"`
	StartLine    int    `json:"start_line"`
	EndLine      int    `json:"end_line"`
	InDiff       bool   `json:"in_diff"`
	Method       string `json:"method"`
	Category     string `json:"category"`
	Severity     string `json:"severity"`
	Content      string `json:"content"`
	Suggestion   string `json:"suggestion"`
	ExistingCode string `json:"existing_code"`
	QuotedCode   string `json:"quoted_code"`
	RuleID       string `json:"rule_id"`
	Fingerprint  string `json:"fingerprint"`
	// Ambiguous: the quote matched other places just as well (Candidates,
	// their start lines) and the model did not say which it meant.
	Ambiguous  bool  `json:"ambiguous"`
	Candidates []int `json:"candidates"`
	// Suppressed says who ignored the finding and why; null when nobody
	// did. A suppressed finding is not posted and does not trip --fail-on.
	Suppressed *review.Suppression `json:"suppressed"`
	// Votes is "k/N": k of the review's N passes found it (--passes);
	// absent for a review of one pass.
	Votes *review.Votes `json:"votes,omitempty"`
}

type jsonFile struct {
	Path      string `json:"path"`
	OldPath   string `json:"old_path"`
	Status    string `json:"status"`
	Additions int    `json:"additions"`
	Deletions int    `json:"deletions"`
	Reviewed  bool   `json:"reviewed"`
	Reason    string `json:"reason"`
	Detail    string `json:"detail"`
}

// Report writes one indented JSON object.
func (j *Reporter) Report(_ context.Context, r *review.Review) error {
	data, err := reporters.MarshalIndent(jsonShape(r))
	if err != nil {
		return fmt.Errorf("could not encode the JSON report: %w", err)
	}
	if _, err := j.W.Write(data); err != nil {
		return fmt.Errorf("could not write the JSON report: %w", err)
	}
	return nil
}

func jsonShape(r *review.Review) jsonReview {
	out := jsonReview{
		FormatVersion: 1, Tool: sarif.ToolName(r), Version: r.Version, Status: r.Status, Mode: r.Mode,
		Base: r.Base, Head: r.Head, Comments: []jsonComment{}, Files: []jsonFile{},
		Dropped: r.Dropped, Filtered: r.Filtered, Outvoted: r.Outvoted, Passes: r.Passes, Usage: r.Usage, Cost: r.Cost, Errors: append([]string{}, r.Errors...),
		Shard: r.Shard, Config: r.Config, Rules: []jsonRule{}, Started: timeText(r.Started), Finished: timeText(r.Finished),
	}
	for _, rl := range r.Rules {
		out.Rules = append(out.Rules, jsonRule{ID: rl.ID, Title: rl.Title, Description: rl.Description, Help: rl.Help,
			Tags: append([]string{}, rl.Tags...)})
	}
	for _, c := range r.Comments {
		out.Comments = append(out.Comments, jsonComment{
			Path: c.Path, OldPath: c.OldPath, Side: string(c.Side), StartLine: c.StartLine, EndLine: c.EndLine,
			InDiff: c.InHunk, Method: string(c.Method), Category: string(c.Category), Severity: string(c.Severity),
			Content: c.Content, Suggestion: c.Suggestion, ExistingCode: c.ExistingCode, QuotedCode: c.QuotedCode, RuleID: c.RuleID,
			Fingerprint: c.Fingerprint, Ambiguous: len(c.Candidates) > 0, Candidates: append([]int{}, c.Candidates...),
			Suppressed: c.Suppressed, Votes: c.Votes,
		})
	}
	for _, f := range r.Files {
		out.Files = append(out.Files, jsonFile{Path: f.Path, OldPath: f.OldPath, Status: f.Status,
			Additions: f.Additions, Deletions: f.Deletions, Reviewed: f.Reviewed, Reason: string(f.Reason), Detail: f.Detail})
	}
	return out
}

// timeText is t in RFC 3339 (UTC, to the nanosecond), "" for the zero time.
func timeText(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339Nano)
}
