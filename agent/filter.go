package agent

import (
	"context"
	_ "embed" // the filter prompt
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"text/template"

	openai "github.com/sashabaranov/go-openai"

	"github.com/ocr-ci/ocr/agent/budget"
	"github.com/ocr-ci/ocr/agent/promptname"
	"github.com/ocr-ci/ocr/internal/infra/llm"
	"github.com/ocr-ci/ocr/review"
)

//go:embed prompts/filter.tmpl
var filterPrompt string

// filterTemplate parses prompts/filter.tmpl on first use, once per process
// rather than once per group.
var filterTemplate = sync.OnceValues(func() (*template.Template, error) {
	return template.New("filter").Parse(filterPrompt)
})

// FilterTool is the name of the function the filter model answers through.
const FilterTool = "drop_comments"

// FilterDrop is a comment the reflection filter removed, with the model's reason.
type FilterDrop struct {
	Comment review.Comment
	Reason  string
}

// Filter is the reflection filter: one model call sees a group's diff and
// its comments, numbered, and may drop those whose quoted code is not in the
// diff or that the diff contradicts. It never edits or adds comments. It
// fails open: on any error — transport, no or malformed drop_comments call,
// unknown id — it returns every comment, with an error saying why, which the
// caller logs and otherwise ignores.
func Filter(ctx context.Context, chat Chatter, model, groupDiff string, comments []review.Comment) ([]review.Comment, review.Usage, error) {
	kept, _, usage, err := FilterWithReasons(ctx, chat, model, groupDiff, comments)
	return kept, usage, err
}

// FilterWithReasons is Filter that also returns the dropped comments with
// the model's reasons, for logs. Kept comments keep their input order.
func FilterWithReasons(ctx context.Context, chat Chatter, model, groupDiff string, comments []review.Comment) ([]review.Comment, []FilterDrop, review.Usage, error) {
	if len(comments) == 0 {
		return comments, nil, review.Usage{}, nil
	}
	req, err := filterRequest(model, groupDiff, comments)
	if err != nil {
		return comments, nil, review.Usage{}, err
	}
	var sent atomic.Int64
	resp, err := chat.Chat(llm.CountSent(ctx, &sent), req)
	usage := budget.UsageOf(resp.Usage, sent.Load())
	if err != nil {
		return comments, nil, usage, fmt.Errorf("reflection filter kept all %d comments: the model call failed: %w", len(comments), err)
	}
	reasons, err := parseDrops(resp, len(comments))
	if err != nil {
		return comments, nil, usage, fmt.Errorf("reflection filter kept all %d comments: %w", len(comments), err)
	}
	kept, drops := applyDrops(comments, reasons)
	return kept, drops, usage, nil
}

// applyDrops splits comments by the 1-based ids in reasons.
func applyDrops(comments []review.Comment, reasons map[int]string) ([]review.Comment, []FilterDrop) {
	kept := make([]review.Comment, 0, len(comments))
	var drops []FilterDrop
	for i, c := range comments {
		if r, ok := reasons[i+1]; ok {
			drops = append(drops, FilterDrop{Comment: c, Reason: r})
			continue
		}
		kept = append(kept, c)
	}
	return kept, drops
}

// filterItem is one numbered comment as the prompt shows it.
type filterItem struct {
	ID                              int
	Where, Category, Severity, Code string
	Content, Suggestion             string
}

// filterRequest builds the request: the rendered prompt and the forced
// drop_comments tool with its strict schema.
func filterRequest(model, diff string, comments []review.Comment) (openai.ChatCompletionRequest, error) {
	p, err := renderFilter(diff, comments)
	if err != nil {
		return openai.ChatCompletionRequest{}, err
	}
	return openai.ChatCompletionRequest{
		Model: model,
		Messages: []openai.ChatCompletionMessage{
			{Role: openai.ChatMessageRoleSystem, Content: p["system"]},
			{Role: openai.ChatMessageRoleUser, Content: p["user"]},
		},
		Tools: []openai.Tool{{Type: openai.ToolTypeFunction, Function: &openai.FunctionDefinition{
			Name: FilterTool, Description: p["tool"], Strict: true, Parameters: json.RawMessage(p["schema"])}}},
		ToolChoice: openai.ToolChoice{Type: openai.ToolTypeFunction, Function: openai.ToolFunction{Name: FilterTool}},
	}, nil
}

// renderFilter executes the four parts of prompts/filter.tmpl: system,
// user, tool (description) and schema (the tool's parameters).
func renderFilter(diff string, comments []review.Comment) (map[string]string, error) {
	tmpl, err := filterTemplate()
	if err != nil {
		return nil, fmt.Errorf("reflection filter: bad embedded prompt: %w", err)
	}
	data := map[string]any{"Diff": strings.TrimRight(diff, "\n"), "Comments": filterItems(comments)}
	parts := map[string]string{}
	for _, name := range []string{"system", "user", "tool", "schema"} {
		var b strings.Builder
		if err := tmpl.ExecuteTemplate(&b, name, data); err != nil {
			return nil, fmt.Errorf("reflection filter: render the %s prompt: %w", name, err)
		}
		parts[name] = b.String()
	}
	if !json.Valid([]byte(parts["schema"])) {
		return nil, fmt.Errorf("reflection filter: the embedded tool schema is not JSON")
	}
	return parts, nil
}

// filterItems numbers the comments from 1 as the prompt shows them.
func filterItems(comments []review.Comment) []filterItem {
	items := make([]filterItem, len(comments))
	for i, c := range comments {
		items[i] = filterItem{ID: i + 1, Where: where(c.Location), Category: string(c.Category), Severity: string(c.Severity),
			Code: strings.TrimRight(c.ExistingCode, "\n"), Content: strings.TrimSpace(c.Content),
			Suggestion: strings.TrimRight(c.Suggestion, "\n")}
	}
	return items
}

// where formats a location as the prompt shows it: path:line, path:start-end,
// "(old side)" for removed lines, "(file)" for file-level comments.
func where(l review.Location) string {
	switch {
	case l.FileLevel():
		return promptname.Name(l.Path) + " (file)"
	case l.EndLine > l.StartLine:
		return fmt.Sprintf("%s:%d-%d%s", promptname.Name(l.Path), l.StartLine, l.EndLine, oldSide(l.Side))
	}
	return fmt.Sprintf("%s:%d%s", promptname.Name(l.Path), l.StartLine, oldSide(l.Side))
}

func oldSide(s review.Side) string {
	if s == review.SideOld {
		return " (old side)"
	}
	return ""
}
