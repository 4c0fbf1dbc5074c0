package agent

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/anchor"
	"github.com/ocr-ci/ocr/internal/llm/llmtest"
	"github.com/ocr-ci/ocr/review"
	"github.com/ocr-ci/ocr/tools"
)

// twinBase and twinHead add two functions whose bodies share lines:
// "return nil" is added at lines 5 and 12 of svc/calc.go.
var (
	twinBase = map[string]string{"svc/calc.go": "package svc\n"}
	twinHead = map[string]string{"svc/calc.go": "package svc\n\nfunc A(x int) error {\n\tif x < 0 {\n\t\treturn nil\n\t}\n\treturn check(x)\n}\n\nfunc B(y int) error {\n\tif y > 10 {\n\t\treturn nil\n\t}\n\treturn check(y)\n}\n"}
)

func twinComment(content, code string) llmtest.Call {
	return llmtest.Tool("code_comment", map[string]any{"comments": []map[string]string{{
		"content": content, "existing_code": code, "category": "bug", "severity": "high"}}})
}

func lastToolResult(t *testing.T, r llmtest.Request) string {
	t.Helper()
	res := toolResults(r)
	if len(res) == 0 {
		t.Fatalf("request %d has no tool result", r.Seq)
	}
	return res[len(res)-1]
}

// A quote that matches two places is held at the best-ranked one and the
// result asks for neighbouring lines; the comment sent again with them
// replaces it and lands on the line the model meant.
func TestAmbiguousQuoteSentAgainReplacesHeld(t *testing.T) {
	f := newFixture(t, copyMap(twinBase), copyMap(twinHead))
	srv := llmtest.New(t, mainScript(
		llmtest.Calls(twinComment("B must reject y > 10.", "return nil")),
		llmtest.Calls(twinComment("B must reject y > 10 with an error.", "return nil\n\t}\n\treturn check(y)")),
		llmtest.Calls(llmtest.Done())))
	srv.SetRecord(true)
	out := New(Config{}, client(t, srv, nil), tools.Default()).Review(context.Background(), f.input)
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("requests = %d, want 3", len(reqs))
	}
	if got := lastToolResult(t, reqs[1]); !strings.Contains(got, "ambiguous: svc/calc.go new-side lines 5, 12 match the quote; held at 5") ||
		!strings.Contains(got, "Send each ambiguous comment again") {
		t.Errorf("first result = %q, want the two lines and the request to send it again", got)
	}
	if got := lastToolResult(t, reqs[2]); got != "Successfully commented: placed at svc/calc.go:12 (new side), replacing the ambiguous one." {
		t.Errorf("second result = %q", got)
	}
	if len(out.Comments) != 1 {
		t.Fatalf("comments = %+v, want the re-sent one only", out.Comments)
	}
	c := out.Comments[0]
	if c.StartLine != 12 || c.EndLine != 12 || c.Side != review.SideNew || c.ExistingCode != "return nil" || !strings.Contains(c.Content, "with an error") {
		t.Errorf("comment = %+v, want the re-sent text on line 12, quoting the held line", c)
	}
}

// A model that ignores the feedback gets exactly the place Resolve gives
// today.
func TestAmbiguousQuoteIgnoredKeepsTodaysPlace(t *testing.T) {
	f := newFixture(t, copyMap(twinBase), copyMap(twinHead))
	srv := llmtest.New(t, mainScript(llmtest.Calls(twinComment("B must reject y > 10.", "return nil")), llmtest.Calls(llmtest.Done())))
	out := New(Config{}, client(t, srv, nil), tools.Default()).Review(context.Background(), f.input)
	lines := strings.Split(strings.TrimSuffix(twinHead["svc/calc.go"], "\n"), "\n")
	today := anchor.Resolve(context.Background(), anchor.Query{Path: "svc/calc.go", Code: "return nil"}, f.input.Changes,
		anchor.Options{NewFile: func(string) ([]string, bool) { return lines, true }})
	if len(out.Comments) != 1 || !reflect.DeepEqual(out.Comments[0].Location, today) {
		t.Fatalf("comments = %+v, want one at %+v", out.Comments, today)
	}
	if len(today.Candidates) == 0 {
		t.Errorf("today's place %+v has no candidates: the fixture is not ambiguous", today)
	}
}

// Two held comments on the same quote: a re-send replaces the one whose
// text it shares most words with, and the other stays held.
func TestResendReplacesTheMatchingHeldComment(t *testing.T) {
	f := newFixture(t, copyMap(twinBase), copyMap(twinHead))
	both := llmtest.Tool("code_comment", map[string]any{"comments": []map[string]string{
		{"content": "A hides negative x.", "existing_code": "return nil"},
		{"content": "B hides large y.", "existing_code": "return nil"}}})
	srv := llmtest.New(t, mainScript(llmtest.Calls(both),
		llmtest.Calls(twinComment("B hides large y values.", "return nil\n}\nreturn check(y)")),
		llmtest.Calls(llmtest.Done())))
	out := New(Config{}, client(t, srv, nil), tools.Default()).Review(context.Background(), f.input)
	if len(out.Comments) != 2 {
		t.Fatalf("comments = %+v, want two", out.Comments)
	}
	a, b := out.Comments[0], out.Comments[1]
	if strings.HasPrefix(a.Content, "B ") {
		a, b = b, a
	}
	if !strings.HasPrefix(a.Content, "A ") || a.StartLine != 5 || !strings.HasPrefix(b.Content, "B ") || b.StartLine != 12 {
		t.Errorf("comments = %q at %d, %q at %d; want A held at 5, B re-sent onto 12", a.Content, a.StartLine, b.Content, b.StartLine)
	}
}

// A re-send that does not contain the held quote is a comment of its own.
func TestResendWithOtherQuoteIsNew(t *testing.T) {
	f := newFixture(t, copyMap(twinBase), copyMap(twinHead))
	srv := llmtest.New(t, mainScript(llmtest.Calls(twinComment("B hides large y.", "return nil")),
		llmtest.Calls(twinComment("B checks y.", "return check(y)")),
		llmtest.Calls(llmtest.Done())))
	out := New(Config{}, client(t, srv, nil), tools.Default()).Review(context.Background(), f.input)
	if len(out.Comments) != 2 || out.Comments[0].StartLine != 5 || out.Comments[1].StartLine != 14 {
		t.Fatalf("comments = %+v, want the held one at 5 and a new one at 14", out.Comments)
	}
}

// A re-send with a suggestion keeps its own range: the suggestion replaces
// every line it quotes.
func TestResendWithSuggestionKeepsItsRange(t *testing.T) {
	f := newFixture(t, copyMap(twinBase), copyMap(twinHead))
	resend := llmtest.Tool("code_comment", map[string]any{"comments": []map[string]string{{
		"content": "B must reject y > 10.", "existing_code": "if y > 10 {\n\t\treturn nil", "suggestion_code": "if y > 10 {\n\t\treturn errTooBig"}}})
	srv := llmtest.New(t, mainScript(llmtest.Calls(twinComment("B must reject y > 10.", "return nil")),
		llmtest.Calls(resend), llmtest.Calls(llmtest.Done())))
	out := New(Config{}, client(t, srv, nil), tools.Default()).Review(context.Background(), f.input)
	if len(out.Comments) != 1 {
		t.Fatalf("comments = %+v, want the re-sent one only", out.Comments)
	}
	if c := out.Comments[0]; c.StartLine != 11 || c.EndLine != 12 || !strings.HasPrefix(c.ExistingCode, "if y > 10") || c.Suggestion == "" {
		t.Errorf("comment = %+v, want lines 11-12 with the re-sent quote and suggestion", c)
	}
}

// A comment is asked for once: sent again with the very same quote, it is
// the model's final answer (kept where it is held, still ambiguous), and
// the group asks no more, even for a new ambiguous comment.
func TestIdenticalResendEndsTheAsking(t *testing.T) {
	for _, resend := range []bool{false, true} {
		f := newFixture(t, copyMap(twinBase), copyMap(twinHead))
		answers := []llmtest.Answer{llmtest.Calls(twinComment("B must reject y > 10.", "return nil"))}
		if resend {
			answers = append(answers, llmtest.Calls(twinComment("B must reject y > 10.", "return nil")))
		}
		answers = append(answers, llmtest.Calls(twinComment("The block ends early.", "}")), llmtest.Calls(llmtest.Done()))
		srv := llmtest.New(t, mainScript(answers...))
		srv.SetRecord(true)
		out := New(Config{}, client(t, srv, nil), tools.Default()).Review(context.Background(), f.input)
		reqs := srv.Requests()
		last := lastToolResult(t, reqs[len(reqs)-1])
		asked := strings.Contains(last, "Send each ambiguous comment again")
		if asked == resend {
			t.Errorf("resend %v: the new ambiguous comment's result %q; want asked %v", resend, last, !resend)
		}
		if !resend {
			continue
		}
		if got := lastToolResult(t, reqs[2]); got != "Successfully commented: placed at svc/calc.go:5 (new side), replacing the ambiguous one; the quote matches lines 5, 12, it stays at 5." {
			t.Errorf("identical re-send's result = %q", got)
		}
		if len(out.Comments) != 2 || out.Comments[0].StartLine != 5 || !reflect.DeepEqual(out.Comments[0].Candidates, []int{12}) {
			t.Errorf("comments = %+v, want the re-sent one at 5 with candidate 12, and the new one", out.Comments)
		}
	}
}
