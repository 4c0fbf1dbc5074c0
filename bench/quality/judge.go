package main

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/ocr-ci/ocr/internal/infra/llm"
	"github.com/ocr-ci/ocr/review"
	openai "github.com/sashabaranov/go-openai"
)

const judgeSystem = `You compare two code review comments on the same lines of a pull request.
Answer YES when they point out the same problem (the same defect, risk or
improvement, however worded), NO otherwise. Answer with one word.`

// judge asks a model whether two comments say the same thing, once per
// pair; an error counts as "not the same" and is remembered for the table.
type judge struct {
	client *llm.Client
	mu     sync.Mutex
	seen   map[string]bool
	errs   int
	usage  review.Usage
}

// newJudge builds the judge for an OpenAI-compatible endpoint.
func newJudge(cfg llm.Config) (*judge, error) {
	c, err := llm.New(cfg, llm.Options{})
	if err != nil {
		return nil, fmt.Errorf("the judge endpoint: %w", err)
	}
	return &judge{client: c, seen: map[string]bool{}}, nil
}

// same is a sameMeaning.
func (j *judge) same(ctx context.Context, e comment, g review.Comment) bool {
	key := e.Note + "\x00" + g.Content
	j.mu.Lock()
	v, ok := j.seen[key]
	j.mu.Unlock()
	if ok {
		return v
	}
	user := fmt.Sprintf("File %s.\n\nComment A (expert):\n%s\n\nComment B (reviewer):\n%s\n", e.Path, e.Note, g.Content)
	resp, err := j.client.Chat(ctx, openai.ChatCompletionRequest{MaxCompletionTokens: 8, Messages: []openai.ChatCompletionMessage{
		{Role: openai.ChatMessageRoleSystem, Content: judgeSystem}, {Role: openai.ChatMessageRoleUser, Content: user}}})
	j.mu.Lock()
	defer j.mu.Unlock()
	j.usage = j.usage.Add(review.Usage{Requests: 1, PromptTokens: resp.Usage.PromptTokens, CompletionTokens: resp.Usage.CompletionTokens})
	if err != nil || len(resp.Choices) == 0 {
		j.errs++
		return false
	}
	v = strings.HasPrefix(strings.ToUpper(strings.TrimSpace(resp.Choices[0].Message.Content)), "YES")
	j.seen[key] = v
	return v
}
