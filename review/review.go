// Package review is the shared vocabulary of ocr: comments, severities,
// categories, locations, fingerprints and the finished review that
// reporters receive. It imports only the standard library.
package review

import (
	"strconv"
	"strings"
	"time"
)

// Status says whether a review covered everything it selected.
type Status string

// The three outcomes of a run.
const (
	// StatusComplete means every selected file was reviewed.
	StatusComplete Status = "complete"
	// StatusPartial means some selected files were not reviewed; each has a reason.
	StatusPartial Status = "partial"
	// StatusFailed means no selected file was reviewed.
	StatusFailed Status = "failed"
)

// Review is the finished result of one run: what reporters receive.
// Nothing is posted anywhere before it is complete.
type Review struct {
	// Tool and Version name the reviewer (for SARIF and markers).
	Tool    string `json:"tool"`
	Version string `json:"version"`
	// Mode is "range", "commit" or "workspace".
	Mode string `json:"mode"`
	// Base and Head are the resolved commits of the range (Head empty in workspace mode).
	Base string `json:"base,omitempty"`
	Head string `json:"head,omitempty"`
	// Status is complete, partial or failed.
	Status Status `json:"status"`
	// Comments are the findings after anchoring, filtering, dedupe and caps,
	// most severe first.
	Comments []Comment `json:"comments"`
	// Files is the per-file coverage: every file of the change set, reviewed or
	// not, with the reason.
	Files []FileCoverage `json:"files"`
	// Dropped counts comments removed by the caps (still counted in summaries).
	Dropped int `json:"dropped,omitempty"`
	// Filtered counts comments removed by the reflection filter and dedupe.
	Filtered int `json:"filtered,omitempty"`
	// Outvoted counts the distinct findings of a review of several passes
	// (--passes) that fewer than --min-votes passes found (the same
	// finding made by several passes counts once).
	Outvoted int `json:"outvoted,omitempty"`
	// Usage is the model usage of the whole run.
	Usage Usage `json:"usage"`
	// Passes is each pass's usage and cost when the review made several
	// (--passes); the filter run after the vote is in Usage only.
	Passes []Pass `json:"passes,omitempty"`
	// Cost is what Usage cost at the prices given (OCR_PRICE_*); nil
	// without prices.
	Cost *Cost `json:"cost,omitempty"`
	// Rules are the review rules that applied to reviewed files (SARIF rules).
	Rules []Rule `json:"-"`
	// Errors are human-readable reasons why the run is partial or failed.
	Errors []string `json:"errors,omitempty"`
	// Shard is the part of a sharded scan this run reviewed (--shard I/N);
	// nil when the run reviewed everything it selected.
	Shard *Shard `json:"shard,omitempty"`
	// Config fingerprints the settings that shape what is selected and
	// found, so the reports of one sharded scan can be told to belong
	// together ("" when not recorded).
	Config string `json:"config,omitempty"`
	// Started and Finished bound the run.
	Started  time.Time `json:"started"`
	Finished time.Time `json:"finished"`
}

// Pass is what one of several passes cost.
type Pass struct {
	Usage Usage `json:"usage"`
	Cost  *Cost `json:"cost,omitempty"`
}

// Usage is model usage accounted from the provider's responses.
type Usage struct {
	Requests         int `json:"requests"`
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	// CachedTokens are the prompt tokens the provider reports it served
	// from its cache (part of PromptTokens), priced at the cached-input price.
	CachedTokens int `json:"cached_tokens,omitempty"`
	// ReasoningTokens are the completion tokens a reasoning model reports
	// it spent thinking (completion_tokens_details.reasoning_tokens; part
	// of CompletionTokens, billed as output).
	ReasoningTokens int `json:"reasoning_tokens,omitempty"`
}

// Breakdown is the cached and reasoning parts of the tokens, for the
// reports' usage lines: "" when the provider reported neither, else
// " (1,024 cached, 300 reasoning)"-style text.
func (u Usage) Breakdown() string {
	var parts []string
	if u.CachedTokens > 0 {
		parts = append(parts, Thousands(u.CachedTokens)+" of the prompt tokens cached")
	}
	if u.ReasoningTokens > 0 {
		parts = append(parts, Thousands(u.ReasoningTokens)+" of the completion tokens reasoning")
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

// Thousands writes a count for people, its digits grouped by three with
// commas (12,345): every token count printed beside another uses it, so
// the text report, the log and the summary agree. Machine-readable
// outputs (JSON, SARIF, step outputs) keep plain numbers.
func Thousands(n int) string {
	if n < 0 {
		return "-" + Thousands(-n)
	}
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// Add returns the sum of two usages.
func (u Usage) Add(o Usage) Usage {
	return Usage{
		Requests:         u.Requests + o.Requests,
		PromptTokens:     u.PromptTokens + o.PromptTokens,
		CompletionTokens: u.CompletionTokens + o.CompletionTokens,
		CachedTokens:     u.CachedTokens + o.CachedTokens,
		ReasoningTokens:  u.ReasoningTokens + o.ReasoningTokens,
	}
}

// FileCoverage says what happened to one file of the change set.
type FileCoverage struct {
	Path      string `json:"path"`
	OldPath   string `json:"old_path,omitempty"`
	Status    string `json:"status"`
	Additions int    `json:"additions"`
	Deletions int    `json:"deletions"`
	Reviewed  bool   `json:"reviewed"`
	// Reason says why, when Reviewed is false (the Reason constants).
	Reason Reason `json:"reason,omitempty"`
	// Detail is a human-readable explanation of Reason, when there is more to say.
	Detail string `json:"detail,omitempty"`
}

// Rule is a review rule as reporters see it (SARIF rules, Code Quality check names).
type Rule struct {
	// ID is stable across versions, e.g. "ocr/go".
	ID string `json:"id"`
	// Title is a short human name.
	Title string `json:"title"`
	// Description is one sentence.
	Description string `json:"description"`
	// Help is Markdown.
	Help string `json:"help"`
	// Tags label the rule (language, "security", ...).
	Tags []string `json:"tags,omitempty"`
}

// Shard names one part of a sharded run: Index of Total, from 1.
type Shard struct {
	Index int `json:"index"`
	Total int `json:"total"`
}
