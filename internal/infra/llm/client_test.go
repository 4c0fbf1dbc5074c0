package llm_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ocr-ci/ocr/internal/infra/llm"
	"github.com/ocr-ci/ocr/internal/testkit/llmtest"
	openai "github.com/sashabaranov/go-openai"
)

// recorder captures sleeps and log lines instead of waiting.
type recorder struct {
	mu     sync.Mutex
	sleeps []time.Duration
	logs   []string
}

func (r *recorder) options() llm.Options {
	return llm.Options{
		Sleep: func(_ context.Context, d time.Duration) error {
			r.mu.Lock()
			defer r.mu.Unlock()
			r.sleeps = append(r.sleeps, d)
			return nil
		},
		Logf: func(f string, a ...any) {
			r.mu.Lock()
			defer r.mu.Unlock()
			r.logs = append(r.logs, fmt.Sprintf(f, a...))
		},
		Jitter: func() float64 { return 0 },
	}
}

func newClient(t *testing.T, cfg llm.Config, r *recorder) *llm.Client {
	t.Helper()
	c, err := llm.New(cfg, r.options())
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func ask(marker string) openai.ChatCompletionRequest {
	return openai.ChatCompletionRequest{Messages: []openai.ChatCompletionMessage{
		{Role: openai.ChatMessageRoleSystem, Content: "sys"},
		{Role: openai.ChatMessageRoleUser, Content: "review " + marker}}}
}

func TestChatRetries(t *testing.T) {
	tests := []struct {
		name      string
		answers   []llmtest.Answer
		wantErr   int // HTTP status of the final error, -1 for success
		wantSleep []time.Duration
		// wantLogs: one line per kind of failure that is retried, not one
		// per attempt; the final failure is the caller's to report.
		wantLogs int
	}{
		{"429 honours Retry-After", []llmtest.Answer{{Status: 429, RetryAfter: "2"}, llmtest.Text("ok")}, -1, []time.Duration{2 * time.Second}, 1},
		{"500 then success", []llmtest.Answer{{Status: 500}, {Status: 503}, llmtest.Text("ok")}, -1, []time.Duration{250 * time.Millisecond, 500 * time.Millisecond}, 2},
		{"truncated body is retried", []llmtest.Answer{{Truncate: true}, llmtest.Text("ok")}, -1, []time.Duration{250 * time.Millisecond}, 1},
		{"400 is not retried", []llmtest.Answer{{Status: 400}}, 400, nil, 0},
		{"401 is not retried", []llmtest.Answer{{Status: 401}}, 401, nil, 0},
		{"attempts are bounded", []llmtest.Answer{{Status: 502}, {Status: 502}, {Status: 502}}, 502, []time.Duration{250 * time.Millisecond, 500 * time.Millisecond}, 1},
		{"long Retry-After gives up", []llmtest.Answer{{Status: 429, RetryAfter: "86400"}}, 429, nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.New(t, llmtest.Script{Match: []string{"M"}, Answers: tt.answers})
			r := &recorder{}
			opt := r.options()
			opt.MaxAttempts = 3
			c, err := llm.New(srv.Config(), opt)
			if err != nil {
				t.Fatal(err)
			}
			resp, err := c.Chat(context.Background(), ask("M"))
			if tt.wantErr < 0 {
				if err != nil || resp.Choices[0].Message.Content != "ok" {
					t.Fatalf("Chat = %v, %v", resp, err)
				}
				if resp.Usage.PromptTokens == 0 {
					t.Error("usage not returned")
				}
			} else {
				var e *llm.Error
				if !errors.As(err, &e) || e.Status != tt.wantErr {
					t.Fatalf("Chat error = %#v, want *llm.Error with status %d", err, tt.wantErr)
				}
			}
			if fmt.Sprint(r.sleeps) != fmt.Sprint(tt.wantSleep) {
				t.Errorf("sleeps = %v, want %v", r.sleeps, tt.wantSleep)
			}
			if got := srv.Count(); got != len(tt.answers) {
				t.Errorf("requests = %d, want %d", got, len(tt.answers))
			}
			for _, l := range r.logs {
				if strings.Contains(l, llmtest.Token) {
					t.Errorf("log line leaks the token: %s", l)
				}
			}
			if len(r.logs) != tt.wantLogs {
				t.Errorf("logs = %q, want %d", r.logs, tt.wantLogs)
			}
		})
	}
}

// An endpoint that does not answer within the response timeout is not
// asked again (a hung endpoint must fail a review in minutes, not in
// attempts × timeout); when it never answered, the failure stops the run.
func TestChatNoAnswerIsNotRetried(t *testing.T) {
	t.Parallel() // waits on a timeout: overlap the waits
	srv := llmtest.New(t, llmtest.Script{Match: []string{"M"}, Answers: []llmtest.Answer{{Hang: true}}})
	cfg := srv.Config()
	cfg.Timeout = llm.Seconds(100 * time.Millisecond)
	r := &recorder{}
	start := time.Now()
	_, err := newClient(t, cfg, r).Chat(context.Background(), ask("M"))
	var e *llm.Error
	if !errors.As(err, &e) || e.Kind != llm.KindNoAnswer || e.Retryable || !e.StopsRun() {
		t.Fatalf("Chat error = %#v, want a KindNoAnswer that stops the run", err)
	}
	if !strings.Contains(err.Error(), "did not answer within 100ms") || e.Variable() != "OCR_LLM_TIMEOUT" {
		t.Errorf("error = %v, want it to say the endpoint did not answer", err)
	}
	if d := time.Since(start); d > 2*time.Second || len(r.sleeps) != 0 || srv.Count() != 1 {
		t.Errorf("took %s, %d sleeps, %d requests; want one attempt", d, len(r.sleeps), srv.Count())
	}
}

// Options.ResponseTimeout wins over OCR_LLM_TIMEOUT; after one answer of
// the endpoint, a slow answer fails only its request, not the run.
func TestChatResponseTimeoutOption(t *testing.T) {
	t.Parallel() // waits on a timeout: overlap the waits
	srv := llmtest.New(t, llmtest.Script{Match: []string{"M"}, Answers: []llmtest.Answer{llmtest.Text("ok"), {Hang: true}}})
	cfg := srv.Config()
	cfg.Timeout = llm.Seconds(time.Hour)
	r := &recorder{}
	opt := r.options()
	opt.ResponseTimeout = 100 * time.Millisecond
	c, err := llm.New(cfg, opt)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Chat(context.Background(), ask("M")); err != nil {
		t.Fatal(err)
	}
	_, err = c.Chat(context.Background(), ask("M"))
	var e *llm.Error
	if !errors.As(err, &e) || e.Kind != llm.KindNoAnswer || e.StopsRun() {
		t.Fatalf("Chat error = %#v, want a KindNoAnswer that fails only this request", err)
	}
}

func TestChatCancelled(t *testing.T) {
	t.Parallel() // waits on a timeout: overlap the waits
	srv := llmtest.New(t, llmtest.Script{Match: []string{"M"}, Answers: []llmtest.Answer{{Hang: true}}})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	r := &recorder{}
	_, err := newClient(t, srv.Config(), r).Chat(ctx, ask("M"))
	var e *llm.Error
	if !errors.As(err, &e) || e.Retryable || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Chat error = %v, want a non-retryable *llm.Error wrapping the deadline", err)
	}
	if len(r.sleeps) != 0 {
		t.Errorf("sleeps = %v, want none after cancellation", r.sleeps)
	}
}

func TestExtraHeadersAndBody(t *testing.T) {
	srv := llmtest.New(t, llmtest.Script{Match: []string{"M"}, Answers: []llmtest.Answer{llmtest.Text("ok")}})
	cfg := srv.Config()
	cfg.URL += "/chat/completions"
	if err := cfg.ExtraBody.Decode(`{"enable_thinking":false,"top_k":3}`); err != nil {
		t.Fatal(err)
	}
	cfg.ExtraHeaders = llm.Headers{"X-Title": "ocr"}
	req := ask("M")
	req.MaxCompletionTokens = 100
	if _, err := newClient(t, cfg, &recorder{}).Chat(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	got := srv.Requests()[0]
	if got.Raw["enable_thinking"] != false || got.Raw["top_k"] != float64(3) || got.Raw["max_completion_tokens"] != float64(100) {
		t.Errorf("body = %v, want extra body merged into the request", got.Raw)
	}
	if got.Header.Get("X-Title") != "ocr" {
		t.Errorf("X-Title header = %q", got.Header.Get("X-Title"))
	}
	if got.Body.Model != llmtest.Model {
		t.Errorf("model = %q, want the configured default", got.Body.Model)
	}
}

func TestAzure(t *testing.T) {
	srv := llmtest.New(t, llmtest.Script{Match: []string{"M"}, Answers: []llmtest.Answer{llmtest.Text("ok")}})
	srv.Expect("/openai/deployments/gpt4o/chat/completions", "api-key", llmtest.Token)
	cfg := llm.Config{URL: strings.TrimSuffix(srv.URL, "/v1"), Token: llmtest.Token,
		AzureDeployment: "gpt4o", AzureAPIVersion: "2024-06-01"}
	if _, err := newClient(t, cfg, &recorder{}).Chat(context.Background(), ask("M")); err != nil {
		t.Fatal(err)
	}
	if q := srv.Requests()[0].Query; q != "api-version=2024-06-01" {
		t.Errorf("query = %q", q)
	}
}
