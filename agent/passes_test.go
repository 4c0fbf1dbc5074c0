package agent

import (
	"context"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/internal/testkit/llmtest"
	"github.com/ocr-ci/ocr/review"
	"github.com/ocr-ci/ocr/tools"
)

// passReview runs three passes of the calc fixture; failing lists the
// seeds whose pass never calls task_done.
func passReview(t *testing.T, failing ...int) (Output, string) {
	t.Helper()
	f := calcFixture(t)
	srv := llmtest.New(t)
	srv.Handle(func(r llmtest.Request) llmtest.Answer {
		for _, s := range failing {
			if *r.Body.Seed == s {
				return llmtest.Text("thinking about it")
			}
		}
		return llmtest.Calls(llmtest.Tool("code_comment", map[string]any{"comments": []map[string]string{{
			"content": "b may be zero and the division panics", "existing_code": "return a / b",
			"category": "bug", "severity": "high"}}}), llmtest.Done())
	})
	var progress strings.Builder
	cfg := Config{Passes: 3, MinVotes: 2, Seed: 1, MaxRounds: 1, Progress: &progress}
	out := New(cfg, client(t, srv, nil), tools.Default()).Review(context.Background(), f.input)
	return out, progress.String()
}

// TestPassThatEndsEarlyDoesNotVote: when one of three passes ends without
// task_done, the vote is among the two that finished, the group stays
// reviewed, and the log says so.
func TestPassThatEndsEarlyDoesNotVote(t *testing.T) {
	out, progress := passReview(t, 2)
	if out.Status != review.StatusComplete || len(out.Comments) != 1 {
		t.Fatalf("status %s, %d comments, want complete with the finding two passes made\n%s", out.Status, len(out.Comments), progress)
	}
	if v := out.Comments[0].Votes; v == nil || *v != (review.Votes{Found: 2, Passes: 2}) {
		t.Errorf("votes %v, want 2/2 (the pass that ended early does not vote)", v)
	}
	if !strings.Contains(progress, "2 of 3 passes finished (min-votes 2)") || len(out.Passes) != 3 {
		t.Errorf("passes %d, progress:\n%s", len(out.Passes), progress)
	}
}

// TestNoPassFinishes: a group none of whose passes finished is not
// reviewed, for the first pass's reason.
func TestNoPassFinishes(t *testing.T) {
	out, progress := passReview(t, 1, 2, 3)
	if out.Status != review.StatusFailed || len(out.Comments) != 0 || out.Files[0].Reason != review.ReasonRoundCap {
		t.Errorf("status %s, %d comments, reason %q; want failed, none, round_cap\n%s", out.Status, len(out.Comments), out.Files[0].Reason, progress)
	}
}

// TestTooFewPassesFinish: when fewer passes finish than --min-votes, the
// finding of the one that did is kept, but the group is not reviewed (the
// failed passes' reason, the detail saying how many finished), so the run
// is partial, and the log says so.
func TestTooFewPassesFinish(t *testing.T) {
	out, progress := passReview(t, 2, 3)
	if out.Status != review.StatusPartial && out.Status != review.StatusFailed {
		t.Fatalf("status %s, want not complete\n%s", out.Status, progress)
	}
	want := "1 of 3 passes finished (min-votes 2)"
	if f := out.Files[0]; f.Reviewed || f.Reason != review.ReasonRoundCap || !strings.Contains(f.Detail, want) {
		t.Errorf("coverage %+v, want not reviewed, round_cap, %q", f, want)
	}
	if len(out.Comments) != 1 || !strings.Contains(progress, "group svc/calc.go: "+want) {
		t.Errorf("%d comments (want the one finding kept), progress:\n%s", len(out.Comments), progress)
	}
}
