package agent

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ocr-ci/ocr/agent/grouping"
	"github.com/ocr-ci/ocr/review"

	openai "github.com/sashabaranov/go-openai"

	"github.com/ocr-ci/ocr/internal/testkit/llmtest"
	"github.com/ocr-ci/ocr/tools"
)

// The benchmarks review generated changes against llmtest with a model
// that reads one file, comments once and finishes: two requests per group.
// Run them all in one go:
//
//	go test ./agent -run '^$' -bench . -benchtime 1x

var firstFile = regexp.MustCompile(`<file path="([^"]+)">\n((?:.*\n)*?)</file>`)

// reviewer answers like a well-behaved model: first a file_read of the
// first file under review, then one comment and task_done.
func reviewer(r llmtest.Request) llmtest.Answer {
	m := firstFile.FindStringSubmatch(r.FirstUser())
	if m == nil {
		return llmtest.Text("NONE")
	}
	for _, msg := range r.Body.Messages {
		if msg.Role == openai.ChatMessageRoleAssistant {
			return llmtest.Calls(divLike(m[1], firstAdded(m[2])), llmtest.Done())
		}
	}
	return llmtest.Calls(llmtest.Tool("file_read", map[string]any{"file_path": m[1], "start_line": 1, "end_line": 40}))
}

// malformedModel never makes a usable tool call.
func malformedModel(llmtest.Request) llmtest.Answer {
	return llmtest.Calls(llmtest.Call{Name: "task_done", Args: `{"state": DONE`}, llmtest.Tool("shell", map[string]string{"cmd": "ls"}))
}

func firstAdded(diff string) string {
	for line := range strings.Lines(diff) {
		if strings.HasPrefix(line, "+") {
			return strings.TrimSpace(line[1:])
		}
	}
	return ""
}

func divLike(path, code string) llmtest.Call {
	return llmtest.Tool("code_comment", map[string]any{"path": path, "comments": []map[string]string{{
		"content": "Check this value.", "existing_code": code, "category": "bug", "severity": "medium"}}})
}

// changeOf generates n changed Go files, perDir to a directory, each with
// `lines` changed lines.
func changeOf(n, perDir, lines int) (base, head map[string]string) {
	base, head = map[string]string{}, map[string]string{}
	for i := 0; i < n; i++ {
		p := fmt.Sprintf("pkg%03d/file%03d.go", i/perDir, i)
		var b, h strings.Builder
		fmt.Fprintf(&b, "package pkg%03d\n\nfunc F%d() int {\n\tn := 0\n", i/perDir, i)
		h.WriteString(b.String())
		for k := 0; k < lines; k++ {
			fmt.Fprintf(&b, "\tn += %d\n", k)
			fmt.Fprintf(&h, "\tn += %d * %d\n", k, i)
		}
		b.WriteString("\treturn n\n}\n")
		h.WriteString("\treturn n\n}\n")
		base[p], head[p] = b.String(), h.String()
	}
	return base, head
}

// timing wraps a Chatter and records, per conversation, the time the agent
// spends between an answer and its next request (our side of a round).
type timing struct {
	Chatter
	mu   sync.Mutex
	last map[string]time.Time
	gaps []time.Duration
}

func (c *timing) Chat(ctx context.Context, req openai.ChatCompletionRequest) (openai.ChatCompletionResponse, error) {
	key := req.Messages[0].Content[:20] + req.Messages[1].Content
	c.mu.Lock()
	if t, ok := c.last[key]; ok {
		c.gaps = append(c.gaps, time.Since(t))
	}
	c.mu.Unlock()
	resp, err := c.Chatter.Chat(ctx, req)
	c.mu.Lock()
	c.last[key] = time.Now()
	c.mu.Unlock()
	return resp, err
}

func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	sort.Slice(ds, func(a, b int) bool { return ds[a] < ds[b] })
	return ds[len(ds)/2]
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err) // RUSAGE_SELF with a valid pointer cannot fail
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func BenchmarkReview(b *testing.B) {
	base, head := changeOf(40, 4, 10)
	f := newFixture(b, base, head)
	var normal Output
	b.Run("40files_500ms", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			srv := llmtest.New(b)
			srv.Handle(reviewer)
			srv.SetLatency(500 * time.Millisecond)
			tc := &timing{Chatter: client(b, srv, nil), last: map[string]time.Time{}}
			a := New(Config{}, tc, tools.Default())
			groups := len(grouping.Bundle(a.newRun(f.input).groupFiles(), 0, 0))
			cpu0, start := cpuTime(), time.Now()
			normal = a.Review(context.Background(), f.input)
			wall, cpu := time.Since(start), cpuTime()-cpu0
			perGroup := float64(normal.Usage.Requests) / float64(groups)
			ideal := time.Duration(math.Ceil(float64(groups)/DefaultConcurrency) * perGroup * float64(500*time.Millisecond))
			b.ReportMetric(wall.Seconds()/ideal.Seconds(), "wall/ideal")
			b.ReportMetric(float64(groups), "groups")
			b.ReportMetric(float64(median(tc.gaps).Microseconds())/1000, "wall-gap-ms/req(median)")
			b.ReportMetric(float64(cpu.Microseconds())/1000/float64(normal.Usage.Requests), "process-cpu-ms/req")
			b.ReportMetric(float64(normal.Usage.Requests)/40, "requests/file")
			b.ReportMetric(float64(normal.Usage.PromptTokens)/40, "prompt-tokens/file")
			if normal.Status != "complete" || len(normal.Comments) != groups {
				b.Fatalf("status %s, %d comments, errors %v", normal.Status, len(normal.Comments), normal.Errors)
			}
		}
	})
	b.Run("40files_malformed", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			srv := llmtest.New(b)
			srv.Handle(malformedModel)
			out := New(Config{}, client(b, srv, nil), tools.Default()).Review(context.Background(), f.input)
			b.ReportMetric(float64(out.Usage.Requests)/float64(max(normal.Usage.Requests, 1)), "requests/normal")
			b.ReportMetric(float64(out.Usage.PromptTokens)/float64(max(normal.Usage.PromptTokens, 1)), "tokens/normal")
			if out.Status != "failed" || out.Files[0].Reason != review.ReasonMalformed {
				b.Fatalf("status %s, %+v", out.Status, out.Files[0])
			}
		}
	})
	b.Run("40files_effort_high", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			srv := llmtest.New(b)
			srv.Handle(reviewer)
			out := New(Config{Rounds: 2}, client(b, srv, nil), tools.Default()).Review(context.Background(), f.input)
			b.ReportMetric(float64(out.Usage.Requests)/float64(max(normal.Usage.Requests, 1)), "requests/normal")
			b.ReportMetric(float64(out.Usage.PromptTokens)/float64(max(normal.Usage.PromptTokens, 1)), "tokens/normal")
			b.ReportMetric(float64(out.Usage.PromptTokens)/40, "prompt-tokens/file")
			if out.Status != "complete" || len(out.Comments) != 2*len(normal.Comments) {
				b.Fatalf("status %s, %d comments, errors %v", out.Status, len(out.Comments), out.Errors)
			}
		}
	})
	b.Run("overhead", func(b *testing.B) {
		o := promptOverhead(b)
		b.ReportMetric(float64(o.Plan), "plan-tokens")
		b.ReportMetric(float64(o.Main), "main-tokens")
		b.ReportMetric(float64(o.Relocation), "relocation-tokens")
	})
}

func BenchmarkReview1000Files(b *testing.B) {
	base, head := changeOf(1000, 20, 6)
	f := newFixture(b, base, head)
	for i := 0; i < b.N; i++ {
		srv := llmtest.New(b)
		srv.SetRecord(false)
		srv.Handle(reviewer)
		runtime.GC()
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		peak, stop := samplePeak()
		out := New(Config{}, client(b, srv, nil), tools.Default()).Review(context.Background(), f.input)
		p := stop()
		b.ReportMetric(float64(p)/(1<<20), "peak-heap-MB")
		b.ReportMetric(float64(p-min(p, before.HeapInuse))/(1<<20), "review-heap-MB")
		b.ReportMetric(float64(out.Usage.Requests)/1000, "requests/file")
		b.ReportMetric(float64(out.Usage.PromptTokens)/1000, "prompt-tokens/file")
		b.ReportMetric(float64(maxRSS())/(1<<20), "process-maxrss-MB")
		_ = peak
		if out.Status != "complete" {
			b.Fatalf("status %s: %v", out.Status, out.Errors)
		}
	}
}

// maxRSS is the process's peak resident set (test binary and fake server included).
func maxRSS() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err) // RUSAGE_SELF with a valid pointer cannot fail
	}
	return ru.Maxrss << 10 // kilobytes on Linux
}

// samplePeak samples the heap in use until stop is called.
func samplePeak() (*uint64, func() uint64) {
	var peak uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			peak = max(peak, m.HeapInuse+m.StackInuse)
			select {
			case <-done:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	return &peak, func() uint64 { close(done); wg.Wait(); return peak }
}

// instant is an in-process Chatter that answers like reviewer without HTTP,
// so a benchmark over it measures only the agent's own work per request.
type instant struct{}

func (instant) Chat(_ context.Context, req openai.ChatCompletionRequest) (openai.ChatCompletionResponse, error) {
	r := llmtest.Request{Body: req}
	a := reviewer(r)
	msg := openai.ChatCompletionMessage{Role: "assistant", Content: a.Text}
	for i, c := range a.Calls {
		msg.ToolCalls = append(msg.ToolCalls, openai.ToolCall{ID: fmt.Sprint("c", i, len(req.Messages)), Type: "function",
			Function: openai.FunctionCall{Name: c.Name, Arguments: c.Args}})
	}
	return openai.ChatCompletionResponse{Choices: []openai.ChatCompletionChoice{{Message: msg}},
		Usage: openai.Usage{PromptTokens: 1000, CompletionTokens: 50}}, nil
}

// BenchmarkAgentPerRequest is the agent's own CPU per request: prompts,
// tool dispatch (file_read through git cat-file), anchoring, accounting.
func BenchmarkAgentPerRequest(b *testing.B) {
	base, head := changeOf(40, 4, 10)
	f := newFixture(b, base, head)
	a := New(Config{}, instant{}, tools.Default())
	b.ResetTimer()
	reqs, cpu0 := 0, cpuTime()
	for i := 0; i < b.N; i++ {
		out := a.Review(context.Background(), f.input)
		reqs += out.Usage.Requests
	}
	b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/1000/float64(reqs), "cpu-ms/req")
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(reqs), "wall-ms/req")
}
