package agent

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/anchor"
	"github.com/ocr-ci/ocr/internal/testkit/llmtest"
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

// chooseScript answers the requests that ask where ambiguous comments
// belong, one answer per request; a further request fails the test.
func chooseScript(answers ...string) llmtest.Script {
	s := llmtest.Script{Name: "choice", Match: []string{chooseMark}}
	for _, a := range answers {
		s.Answers = append(s.Answers, llmtest.Text(a))
	}
	return s
}

// twinRun reviews the twin fixture with the main conversation's answers
// and the choice requests' answers, recording every request.
func twinRun(t *testing.T, main []llmtest.Answer, choices ...string) (Output, []llmtest.Request) {
	t.Helper()
	f := newFixture(t, copyMap(twinBase), copyMap(twinHead))
	srv := llmtest.New(t, mainScript(main...), chooseScript(choices...))
	srv.SetRecord(true)
	out := New(Config{}, client(t, srv, nil), tools.Default()).Review(context.Background(), f.input)
	return out, srv.Requests()
}

// scripted returns the requests that the choice script served (choice
// true) or the others, in order.
func scripted(reqs []llmtest.Request, choice bool) []llmtest.Request {
	var out []llmtest.Request
	for _, r := range reqs {
		if (r.Script == "choice") == choice {
			out = append(out, r)
		}
	}
	return out
}

func lastToolResult(t *testing.T, r llmtest.Request) string {
	t.Helper()
	res := toolResults(r)
	if len(res) == 0 {
		t.Fatalf("request %d has no tool result", r.Seq)
	}
	return res[len(res)-1]
}

// A quote that matches two places is asked about in a request of its own
// showing both places with their lines numbered; the line named moves the
// comment there, no longer ambiguous, and the call's result says so.
func TestAmbiguityChoiceMovesComment(t *testing.T) {
	out, reqs := twinRun(t, []llmtest.Answer{llmtest.Calls(twinComment("B must reject y > 10.", "return nil")), llmtest.Calls(llmtest.Done())}, "1: 12")
	asks := scripted(reqs, true)
	if len(reqs) != 3 || len(asks) != 1 {
		t.Fatalf("requests = %d, choice requests = %d; want 3 and 1", len(reqs), len(asks))
	}
	q := asks[0].FirstUser()
	for _, want := range []string{`<comment n="1" path="svc/calc.go">`, "B must reject y > 10.", "Place at line 5:", "Place at line 12:", "  12 | \t\treturn nil", "  11 | \tif y > 10 {"} {
		if !strings.Contains(q, want) {
			t.Errorf("choice request lacks %q:\n%s", want, q)
		}
	}
	if got := lastToolResult(t, reqs[len(reqs)-1]); got != "Successfully commented: placed at svc/calc.go:12 (new side)." {
		t.Errorf("result = %q", got)
	}
	if len(out.Comments) != 1 {
		t.Fatalf("comments = %+v, want one", out.Comments)
	}
	if c := out.Comments[0]; c.StartLine != 12 || c.EndLine != 12 || c.Side != review.SideNew || len(c.Candidates) != 0 || c.ExistingCode != "return nil" {
		t.Errorf("comment = %+v, want it on line 12, not ambiguous", c)
	}
}

// An answer that does not name one of the comment's places ("?", prose, a
// line that is not a place, another comment's number) leaves it where
// Resolve puts it, marked ambiguous, and the result says it stays there.
func TestAmbiguityUnansweredKeepsTodaysPlace(t *testing.T) {
	for _, answer := range []string{"1: ?", "The second one, I think.", "1: 7", "1: 13", "2: 12", ""} {
		out, reqs := twinRun(t, []llmtest.Answer{llmtest.Calls(twinComment("B must reject y > 10.", "return nil")), llmtest.Calls(llmtest.Done())}, answer)
		f := newFixture(t, copyMap(twinBase), copyMap(twinHead))
		lines := strings.Split(strings.TrimSuffix(twinHead["svc/calc.go"], "\n"), "\n")
		today := anchor.Resolve(context.Background(), anchor.Query{Path: "svc/calc.go", Code: "return nil"}, f.input.Changes,
			anchor.Options{NewFile: func(string) ([]string, bool) { return lines, true }})
		if len(today.Candidates) == 0 {
			t.Fatalf("today's place %+v has no candidates: the fixture is not ambiguous", today)
		}
		if len(out.Comments) != 1 || !reflect.DeepEqual(out.Comments[0].Location, today) {
			t.Errorf("answer %q: comments = %+v, want one at %+v", answer, out.Comments, today)
		}
		want := "Successfully commented: placed at svc/calc.go:5 (new side); the quote matches lines 5, 12, it stays at 5, the best-ranked, marked ambiguous."
		if got := lastToolResult(t, reqs[len(reqs)-1]); got != want {
			t.Errorf("answer %q: result = %q, want %q", answer, got, want)
		}
	}
}

// The answer names comments by the number the request shows (their
// arrival number), not by their position among the ambiguous ones.
func TestAmbiguityChoiceByCommentNumber(t *testing.T) {
	two := llmtest.Tool("code_comment", map[string]any{"comments": []map[string]string{
		{"content": "check(y) is unchecked.", "existing_code": "return check(y)"},
		{"content": "B hides large y.", "existing_code": "return nil"}}})
	out, reqs := twinRun(t, []llmtest.Answer{llmtest.Calls(two), llmtest.Calls(llmtest.Done())}, "1: 5\n2: 12\n2: 5")
	if q := scripted(reqs, true)[0].FirstUser(); strings.Contains(q, "check(y) is unchecked") || !strings.Contains(q, `<comment n="2"`) {
		t.Errorf("choice request = %q, want only comment 2", q)
	}
	if len(out.Comments) != 2 || out.Comments[0].StartLine != 14 || out.Comments[1].StartLine != 12 || len(out.Comments[1].Candidates) != 0 {
		t.Errorf("comments = %+v, want the first at 14 and the second moved to 12 (the first answer for it)", out.Comments)
	}
}

// Two held comments on the same quote are asked about in one request; a
// later re-send by the model still replaces the one whose text it shares
// most words with, and the other stays held.
func TestResendReplacesTheMatchingHeldComment(t *testing.T) {
	both := llmtest.Tool("code_comment", map[string]any{"comments": []map[string]string{
		{"content": "A hides negative x.", "existing_code": "return nil"},
		{"content": "B hides large y.", "existing_code": "return nil"}}})
	out, _ := twinRun(t, []llmtest.Answer{llmtest.Calls(both),
		llmtest.Calls(twinComment("B hides large y values.", "return nil\n}\nreturn check(y)")),
		llmtest.Calls(llmtest.Done())}, "1: ?\n2: ?")
	if len(out.Comments) != 2 {
		t.Fatalf("comments = %+v, want two", out.Comments)
	}
	a, b := out.Comments[0], out.Comments[1]
	if strings.HasPrefix(a.Content, "B ") {
		a, b = b, a
	}
	if !strings.HasPrefix(a.Content, "A ") || a.StartLine != 5 || len(a.Candidates) == 0 || !strings.HasPrefix(b.Content, "B ") || b.StartLine != 12 {
		t.Errorf("comments = %q at %d, %q at %d; want A held at 5, B re-sent onto 12", a.Content, a.StartLine, b.Content, b.StartLine)
	}
}

// A re-send that does not contain the held quote is a comment of its own.
func TestResendWithOtherQuoteIsNew(t *testing.T) {
	out, _ := twinRun(t, []llmtest.Answer{llmtest.Calls(twinComment("B hides large y.", "return nil")),
		llmtest.Calls(twinComment("B checks y.", "return check(y)")),
		llmtest.Calls(llmtest.Done())}, "1: ?")
	if len(out.Comments) != 2 || out.Comments[0].StartLine != 5 || out.Comments[1].StartLine != 14 {
		t.Fatalf("comments = %+v, want the held one at 5 and a new one at 14", out.Comments)
	}
}

// A re-send with a suggestion keeps its own range: the suggestion replaces
// every line it quotes.
func TestResendWithSuggestionKeepsItsRange(t *testing.T) {
	resend := llmtest.Tool("code_comment", map[string]any{"comments": []map[string]string{{
		"content": "B must reject y > 10.", "existing_code": "if y > 10 {\n\t\treturn nil", "suggestion_code": "if y > 10 {\n\t\treturn errTooBig"}}})
	out, _ := twinRun(t, []llmtest.Answer{llmtest.Calls(twinComment("B must reject y > 10.", "return nil")),
		llmtest.Calls(resend), llmtest.Calls(llmtest.Done())}, "1: ?")
	if len(out.Comments) != 1 {
		t.Fatalf("comments = %+v, want the re-sent one only", out.Comments)
	}
	if c := out.Comments[0]; c.StartLine != 11 || c.EndLine != 12 || !strings.HasPrefix(c.ExistingCode, "if y > 10") || c.Suggestion == "" || len(c.Candidates) != 0 {
		t.Errorf("comment = %+v, want lines 11-12 with the re-sent quote and suggestion", c)
	}
}

// Each comment is asked about once: sent again with the very same quote
// after a "?", it replaces the held one without a second question and
// stays ambiguous; a new ambiguous comment of a later call gets its own
// question, which does not show the first comment. chooseScript fails
// the test on a third choice request.
func TestEachAmbiguousCommentAskedOnce(t *testing.T) {
	out, reqs := twinRun(t, []llmtest.Answer{
		llmtest.Calls(twinComment("B must reject y > 10.", "return nil")),
		llmtest.Calls(twinComment("B must reject y > 10.", "return nil")),
		llmtest.Calls(twinComment("The block ends early.", "return check(y)\n}")),
		llmtest.Calls(twinComment("The block ends early.", "}")),
		llmtest.Calls(llmtest.Done())}, "1: ?", "3: 15")
	asks := scripted(reqs, true)
	if len(asks) != 2 {
		t.Fatalf("choice requests = %d, want 2", len(asks))
	}
	if q := asks[1].FirstUser(); strings.Contains(q, "B must reject") || !strings.Contains(q, `<comment n="3"`) {
		t.Errorf("second choice request = %q, want only the new comment", q)
	}
	main := scripted(reqs, false)
	if got := lastToolResult(t, main[2]); got != "Successfully commented: placed at svc/calc.go:5 (new side), replacing the ambiguous one; the quote matches lines 5, 12, it stays at 5, the best-ranked, marked ambiguous." {
		t.Errorf("identical re-send's result = %q", got)
	}
	if len(out.Comments) != 3 || out.Comments[0].StartLine != 5 || !reflect.DeepEqual(out.Comments[0].Candidates, []int{12}) {
		t.Fatalf("comments = %+v, want the re-sent one at 5 with candidate 12, and two new ones", out.Comments)
	}
	if c := out.Comments[2]; c.StartLine != 15 || len(c.Candidates) != 0 {
		t.Errorf("new ambiguous comment = %+v, want it moved to 15 by its own question", c)
	}
}
