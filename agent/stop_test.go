package agent

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/ocr-ci/ocr/internal/testkit/llmtest"
	"github.com/ocr-ci/ocr/review"
	"github.com/ocr-ci/ocr/tools"
)

var regexpTokens = regexp.MustCompile(`\] waiting for 1 request in flight · 1/2 groups done · 1 request · ([\d,]+) tokens so far`)

// manyGroups is a change of n files in n directories, one group each.
func manyGroups(t *testing.T, n int) *fixture {
	base, head := map[string]string{}, map[string]string{}
	for i := range n {
		p := fmt.Sprintf("d%02d/f.go", i)
		base[p] = fmt.Sprintf("package d%02d\n\nvar x = 1\n", i)
		head[p] = fmt.Sprintf("package d%02d\n\nvar x = 2\n", i)
	}
	return newFixture(t, base, head)
}

// A failure that would fail every request alike stops the run at its first
// occurrence: at most one wave of requests (the groups in flight), every
// file not reviewed with the same cause, one line in Errors.
func TestDefinitiveFailureStopsTheRun(t *testing.T) {
	for name, a := range map[string]llmtest.Answer{
		"401":      {Status: 401, Message: "Incorrect API key provided"},
		"404":      {Status: 404, Message: "The model `m` does not exist"},
		"HTML 200": {Body: "<html><head><title>Login</title></head></html>"},
	} {
		t.Run(name, func(t *testing.T) {
			f := manyGroups(t, 12)
			srv := llmtest.New(t)
			srv.Handle(func(llmtest.Request) llmtest.Answer { return a })
			var progress strings.Builder
			out := New(Config{Progress: &progress, GroupFiles: 1, Concurrency: 3, NoPlan: true}, client(t, srv, nil), tools.Default()).
				Review(context.Background(), f.input)
			if n := srv.Count(); n < 1 || n > 3 {
				t.Errorf("%d requests, want at most one wave (3)", n)
			}
			if out.Status != review.StatusFailed || len(out.Errors) != 1 || !strings.Contains(out.Errors[0], "12 file(s)") {
				t.Errorf("status %s, errors %q; want failed with one line for the 12 files", out.Status, out.Errors)
			}
			for _, c := range out.Files {
				if c.Reason != review.ReasonProvider || c.Detail != out.Files[0].Detail {
					t.Errorf("%s: %s %q, want provider_error with the one cause %q", c.Path, c.Reason, c.Detail, out.Files[0].Detail)
				}
			}
			if lines := strings.Count(progress.String(), "not reviewed"); lines != 1 {
				t.Errorf("%d group lines say not reviewed, want 1 (the group that met the failure):\n%s", lines, progress.String())
			}
		})
	}
}

// A transient failure fails only its group.
func TestTransientFailureFailsOneGroup(t *testing.T) {
	f := manyGroups(t, 3)
	srv := llmtest.New(t, llmtest.Script{Match: []string{mainMark, `<file path="d01/f.go">`}, Repeat: true, Answers: []llmtest.Answer{{Status: 503, RetryAfter: "0"}}})
	srv.Handle(func(llmtest.Request) llmtest.Answer { return llmtest.Calls(llmtest.Done()) })
	out := New(Config{GroupFiles: 1, Concurrency: 1, NoPlan: true}, client(t, srv, nil), tools.Default()).Review(context.Background(), f.input)
	if out.Status != review.StatusPartial || out.Files[1].Reviewed || !out.Files[0].Reviewed || !out.Files[2].Reviewed {
		t.Errorf("status %s, files %+v; want only d01 not reviewed", out.Status, out.Files)
	}
}

// The run's deadline ends the groups in flight and the ones not started,
// naming the deadline as the caller worded it.
func TestRunDeadline(t *testing.T) {
	f := manyGroups(t, 4)
	srv := llmtest.New(t, llmtest.Script{Match: []string{mainMark, `<file path="d00/f.go">`}, Answers: []llmtest.Answer{llmtest.Calls(llmtest.Done())}})
	srv.Handle(func(llmtest.Request) llmtest.Answer { return llmtest.Answer{Hang: true} })
	ctx, cancel := context.WithTimeoutCause(context.Background(), 300*time.Millisecond, fmt.Errorf("the run's deadline was reached"))
	defer cancel()
	start := time.Now()
	out := New(Config{GroupFiles: 1, Concurrency: 1, NoPlan: true}, client(t, srv, nil), tools.Default()).Review(ctx, f.input)
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %s after a 300ms deadline", d)
	}
	if out.Status != review.StatusPartial || !out.Files[0].Reviewed {
		t.Fatalf("status %s, files %+v; want d00 reviewed, the rest not", out.Status, out.Files)
	}
	for _, c := range out.Files[1:] {
		if c.Reason != review.ReasonTimeout || c.Detail != "the run's deadline was reached" {
			t.Errorf("%s: %s %q, want timeout with the deadline's cause", c.Path, c.Reason, c.Detail)
		}
	}
}

// A person following a CI log sees each group start and end, stamped with
// the time since the run started, with how long it took and the run's
// running count of requests and tokens, and a heartbeat while requests are
// in flight; --quiet (Config.Quiet) leaves all of it out.
func TestProgressStartEndAndHeartbeat(t *testing.T) {
	f := manyGroups(t, 2)
	srv := llmtest.New(t)
	srv.Handle(func(llmtest.Request) llmtest.Answer {
		return llmtest.Answer{Calls: []llmtest.Call{llmtest.Done()}, Delay: 250 * time.Millisecond}
	})
	var progress strings.Builder
	New(Config{Progress: &progress, GroupFiles: 1, Concurrency: 1, NoPlan: true, Heartbeat: 40 * time.Millisecond},
		client(t, srv, nil), tools.Default()).Review(context.Background(), f.input)
	out := progress.String()
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`(?m)^ocr: \[0s\] reviewing 2 files in 2 groups, 1 at a time$`),
		regexp.MustCompile(`(?m)^ocr: \[0s\] group 1/2 start: d00/f\.go$`),
		regexp.MustCompile(`(?m)^ocr: \[0s\] waiting for 1 request in flight · 0/2 groups done · 0 requests · 0 tokens so far$`),
		regexp.MustCompile(`(?m)^ocr: \[0s\] group 1/2 done in 0s: 0 comments · 1 request · [1-9][\d,]* tokens so far$`),
		regexp.MustCompile(`(?m)^ocr: \[\d+s\] group 2/2 start: d01/f\.go$`),
		regexp.MustCompile(`(?m)^ocr: \[\d+s\] group 2/2 done in 0s: 0 comments · 2 requests · [1-9][\d,]* tokens so far$`),
	} {
		if !want.MatchString(out) {
			t.Errorf("progress lacks a line matching %s:\n%s", want, out)
		}
	}
	if strings.Index(out, "group 1/2 start") > strings.Index(out, "in flight") {
		t.Errorf("the heartbeat came before the group started:\n%s", out)
	}
	if m := regexpTokens.FindStringSubmatch(out); m == nil || m[1] == "0" {
		t.Errorf("no heartbeat counts the tokens of the first group:\n%s", out)
	}
	progress.Reset()
	New(Config{Progress: &progress, GroupFiles: 1, Concurrency: 1, NoPlan: true, Heartbeat: 40 * time.Millisecond, Quiet: true},
		client(t, srv, nil), tools.Default()).Review(context.Background(), f.input)
	if progress.Len() != 0 {
		t.Errorf("Quiet printed progress:\n%s", progress.String())
	}
}

// Each group names at most three files, then how many it has.
func TestProgressNamesAGroupsFiles(t *testing.T) {
	f := manyGroups(t, 5)
	srv := llmtest.New(t)
	srv.Handle(func(llmtest.Request) llmtest.Answer { return llmtest.Calls(llmtest.Done()) })
	var progress strings.Builder
	New(Config{Progress: &progress, NoPlan: true, Heartbeat: -1}, client(t, srv, nil), tools.Default()).Review(context.Background(), f.input)
	if out := progress.String(); !strings.Contains(out, "] group 1/1 start: d00/f.go, d01/f.go, d02/f.go, … (5 files)\n") {
		t.Errorf("the group's start line does not name its first files and count them:\n%s", out)
	}
	if got := plural(1234567, "token"); got != "1,234,567 tokens" {
		t.Errorf("plural(1234567) = %q", got)
	}
}

// A filter answer that names nothing to drop is normal and reads so.
func TestFilterNoDropsIsNotAFailure(t *testing.T) {
	f := manyGroups(t, 1)
	srv := llmtest.New(t, llmtest.Script{Match: []string{mainMark}, Answers: []llmtest.Answer{
		llmtest.Calls(llmtest.Tool("code_comment", map[string]any{"comments": []map[string]string{{
			"content": "x changed", "existing_code": "var x = 2", "category": "bug", "severity": "low"}}}), llmtest.Done())}})
	var progress strings.Builder
	filter := func(ctx context.Context, diff string, cs []review.Comment) ([]review.Comment, review.Usage, error) {
		return Filter(ctx, client(t, srv, nil), "", diff, cs)
	}
	srv.Add(llmtest.Script{Match: []string{"drop_comments"}, Answers: []llmtest.Answer{llmtest.Text("All comments are valid.")}})
	out := New(Config{Progress: &progress, NoPlan: true, Filter: filter}, client(t, srv, nil), tools.Default()).Review(context.Background(), f.input)
	if len(out.Comments) != 1 {
		t.Fatalf("comments = %+v, want the one kept", out.Comments)
	}
	p := progress.String()
	if !strings.Contains(p, "kept all 1 comment, none named to drop") || strings.Contains(p, "fail") {
		t.Errorf("progress must say the filter kept all, not that it failed:\n%s", p)
	}
}

// The progress lines count the requests sent, retries included, as the
// run's usage does: a 503 and then an answer is 2 requests in both.
func TestProgressCountsRetries(t *testing.T) {
	f := manyGroups(t, 1)
	srv := llmtest.New(t, llmtest.Script{Match: []string{mainMark}, Answers: []llmtest.Answer{{Status: 503, RetryAfter: "0"}, llmtest.Calls(llmtest.Done())}})
	var progress strings.Builder
	out := New(Config{Progress: &progress, GroupFiles: 1, Concurrency: 1, NoPlan: true}, client(t, srv, nil), tools.Default()).
		Review(context.Background(), f.input)
	if out.Usage.Requests != 2 {
		t.Errorf("usage %d requests, want 2 (the 503 and the answer)", out.Usage.Requests)
	}
	if want := regexp.MustCompile(`(?m)^ocr: \[0s\] group 1/1 done in 0s: 0 comments · 2 requests · `); !want.MatchString(progress.String()) {
		t.Errorf("progress lacks a line matching %s:\n%s", want, progress.String())
	}
}
