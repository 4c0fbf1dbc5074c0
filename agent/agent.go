// Package agent is ocr's review agent: it bundles the selected files into
// groups, and for each group runs an optional read-only plan phase and the
// main tool loop against an OpenAI-compatible model, anchors the comments,
// and accounts rounds, time and tokens. Groups run concurrently.
package agent

import (
	"context"
	"io"
	"time"

	"github.com/ocr-ci/ocr/agent/grouping"
	"github.com/ocr-ci/ocr/anchor"
	"github.com/ocr-ci/ocr/review"
	"github.com/ocr-ci/ocr/tools"
	openai "github.com/sashabaranov/go-openai"
)

// Defaults of Config.
const (
	DefaultConcurrency   = 8
	DefaultGroupTimeout  = 15 * time.Minute
	DefaultMaxRounds     = 40
	DefaultContextTokens = 128_000
	DefaultMaxCompletion = 8_192
	DefaultRounds        = 1
)

// Plan-phase thresholds: a group is planned when one file changes this many
// lines, or the group as a whole changes groupPlanLines.
const (
	filePlanLines  = 50
	groupPlanLines = 100
	planRounds     = 4
	maxPlanChars   = 3_000
)

// Chatter sends one chat completion; *llm.Client implements it.
type Chatter interface {
	Chat(ctx context.Context, req openai.ChatCompletionRequest) (openai.ChatCompletionResponse, error)
}

// FilterFunc reviews a group's comments against its diff and returns the
// ones to keep; an error keeps them all (fail-open).
type FilterFunc func(ctx context.Context, groupDiff string, comments []review.Comment) ([]review.Comment, review.Usage, error)

// Config tunes the agent; the zero value means the defaults.
type Config struct {
	// Model is sent with every request ("" lets the Chatter choose).
	Model string
	// Concurrency bounds groups in flight and anchoring workers (default 8).
	Concurrency int
	// GroupTimeout bounds one group: plan, every main round, anchoring and
	// the filter (default 15m).
	GroupTimeout time.Duration
	// MaxRounds caps main-phase requests before the final round (default 40).
	MaxRounds int
	// MaxTokensBudget caps prompt+completion tokens of the run; 0 = unlimited.
	MaxTokensBudget int
	// MaxCost caps what the run's tokens cost at Prices (0: none): like
	// MaxTokensBudget, a request that would pass it is not sent and the
	// groups not reached end not reviewed with reason budget.
	MaxCost float64
	Prices  review.Prices
	// ContextTokens is the model's context window (default 128000); prompts
	// are kept under 80% of it by shortening old tool outputs.
	ContextTokens int
	// MaxCompletionTokens is sent as max_completion_tokens (default 8192; <0 omits it).
	MaxCompletionTokens int
	// GroupFiles and GroupTokens cap a group (defaults 8 files, 12000 tokens).
	GroupFiles  int
	GroupTokens int
	// ByDirectory groups files by directory even when the change is small
	// enough to be one group (scans: grouping.ByDir).
	ByDirectory bool
	// NoPlan skips the plan phase.
	NoPlan bool
	// Rounds is the number of main rounds per group (default 1; 2 for
	// --effort high). Each later round is told the findings the earlier
	// ones confirmed (after the filter) and looks for what they missed. All
	// rounds share the group's timeout and the run's token budget; a later
	// round that ends early keeps the group reviewed.
	Rounds int
	// Passes is how many times each group is reviewed independently
	// (default 1): its files in another order, and from the second pass on
	// the seed Seed+pass. The passes' findings are grouped
	// (internal/domain/vote), one is kept when MinVotes passes found it,
	// and the filter runs once, on what the vote kept.
	Passes int
	// MinVotes is the votes a finding needs (default a majority of Passes).
	MinVotes int
	// Seed is the first pass's seed (the endpoint's own, sent by the
	// client); pass p sends Seed+p.
	Seed int
	// Filter, when set, is called with each group's anchored comments.
	Filter FilterFunc
	// Progress receives one line per group event (stderr); nil discards.
	Progress io.Writer
	// Heartbeat is the interval of the progress line printed while
	// requests are in flight (default 15s; negative: none).
	Heartbeat time.Duration
	// Quiet leaves out the progress lines (the run's and each group's
	// start and end, the heartbeat); warnings are still written.
	Quiet bool
}

// File is one selected file and its unified diff.
type File struct {
	Path string
	Diff string
}

// Input is one review's material.
type Input struct {
	// Changes is the parsed change set (every file, selected or not).
	Changes *anchor.ChangeSet
	// Files are the files to review, in order.
	Files []File
	// Diffs maps every path of the change set to its diff, for file_read_diff;
	// nil means the selected files' diffs.
	Diffs map[string]string
	// Source is where the tools read.
	Source tools.Source
	// Rules returns the rule id and text for a path ("" text: none).
	Rules func(path string) (ruleID, text string)
	// Background is optional text about the change (--background).
	Background string
	// Language is the language of the comments (default English).
	Language string
}

// Output is the raw result of the agent, before dedupe, caps and reporters.
type Output struct {
	// Comments are anchored (and filtered when Config.Filter is set), all
	// rounds together: they still need review.Dedupe.
	Comments []review.Comment
	// FilterDropped counts the comments the filter removed (for
	// review.Review.Filtered).
	FilterDropped int
	// Outvoted counts the findings fewer than MinVotes passes found.
	Outvoted int
	// Passes is each pass's usage over every group when Config.Passes > 1.
	Passes []review.Usage
	// Files has one entry per selected file, in input order.
	Files []review.FileCoverage
	Usage review.Usage
	// Status is complete, partial or failed.
	Status review.Status
	// Errors explain every file that was not reviewed, one line per cause.
	Errors []string
	// Groups says how the files were bundled and what each group cost.
	Groups []GroupReport
}

// GroupReport is one group's outcome.
type GroupReport struct {
	Files   []string      `json:"files"`
	Planned bool          `json:"planned,omitempty"`
	Reason  review.Reason `json:"reason,omitempty"`
	// Rounds counts the main rounds that ended with task_done.
	Rounds   int `json:"rounds"`
	Comments int `json:"comments"`
	// FilterDropped counts the comments the filter removed.
	FilterDropped int          `json:"filter_dropped,omitempty"`
	Usage         review.Usage `json:"usage"`
}

// Agent reviews change sets. It is safe for concurrent use.
type Agent struct {
	cfg     Config
	chat    Chatter
	reg     *tools.Registry
	prompts prompts
}

// New builds an Agent; reg is usually tools.Default().
func New(cfg Config, chat Chatter, reg *tools.Registry) *Agent {
	p, err := loadPrompts()
	if err != nil {
		panic(err) // embedded files: caught by every test
	}
	return &Agent{cfg: cfg.withDefaults(), chat: chat, reg: reg, prompts: p}
}

func (c Config) withDefaults() Config {
	def := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	def(&c.Concurrency, DefaultConcurrency)
	c.Concurrency = max(c.Concurrency, 1)
	def(&c.MaxRounds, DefaultMaxRounds)
	def(&c.ContextTokens, DefaultContextTokens)
	def(&c.MaxCompletionTokens, DefaultMaxCompletion)
	def(&c.GroupFiles, grouping.DefaultFiles)
	def(&c.GroupTokens, grouping.DefaultTokens)
	def(&c.Rounds, DefaultRounds)
	c.Rounds = max(c.Rounds, 1)
	c.Passes = max(c.Passes, 1)
	if c.MinVotes <= 0 {
		c.MinVotes = c.Passes/2 + 1
	}
	if c.GroupTimeout <= 0 {
		c.GroupTimeout = DefaultGroupTimeout
	}
	if c.Progress == nil {
		c.Progress = io.Discard
	}
	if c.Heartbeat == 0 {
		c.Heartbeat = DefaultHeartbeat
	}
	return c
}
