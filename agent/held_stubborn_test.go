package agent

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/internal/testkit/llmtest"
	"github.com/ocr-ci/ocr/tools"
)

// Issue 23, item 10: the ambiguity question must cost little. The commit
// has eleven files, each adding two functions that share their lines, so
// every quote the model sends matches twice.

const stubbornFiles = 11

func stubbornChange() (base, head map[string]string) {
	base, head = map[string]string{}, map[string]string{}
	for i := range stubbornFiles {
		p := fmt.Sprintf("svc/f%02d.go", i)
		base[p] = "package svc\n"
		head[p] = fmt.Sprintf("package svc\n\nfunc A%[1]d(x int) error {\n\tif x < 0 {\n\t\treturn errBad\n\t}\n\tlog.Print(x)\n\treturn nil\n}\n\n"+
			"func B%[1]d(y int) error {\n\tif y > 10 {\n\t\treturn errBad\n\t}\n\tlog.Print(y)\n\treturn nil\n}\n", i)
	}
	return base, head
}

// How the scripted model answers the request that asks where each
// ambiguous comment belongs.
const (
	modelIgnores = iota // it answers "?" for each: every comment stays held
	modelChooses        // it names the last place shown for each
)

// chooseMark starts the system prompt of that request.
const chooseMark = "You place review comments."

var (
	choiceComment = regexp.MustCompile(`<comment n="(\d+)"`)
	choicePlaceAt = regexp.MustCompile(`Place at line (\d+):`)
)

// stubbornModel plans in one sentence, reads the first file of its group,
// comments on two lines of every file (each quote matches twice), then
// finishes; it answers the choice request as mode says.
func stubbornModel(mode int) func(llmtest.Request) llmtest.Answer {
	return func(r llmtest.Request) llmtest.Answer {
		switch sys := r.Body.Messages[0].Content; {
		case strings.Contains(sys, planMark):
			return llmtest.Text("1. Check how the errors are returned.")
		case strings.HasPrefix(sys, chooseMark):
			return llmtest.Text(choice(r.FirstUser(), mode))
		}
		first := r.FirstUser()
		var paths []string
		for i := range stubbornFiles {
			if p := fmt.Sprintf("svc/f%02d.go", i); strings.Contains(first, `<file path="`+p+`">`) {
				paths = append(paths, p)
			}
		}
		if len(paths) == 0 {
			return llmtest.Text("NONE")
		}
		switch len(toolResults(r)) {
		case 0:
			return llmtest.Calls(llmtest.Tool("file_read", map[string]any{"file_path": paths[0], "start_line": 1, "end_line": 40}))
		case 1:
			var items []map[string]string
			for _, p := range paths {
				items = append(items, map[string]string{"path": p, "content": "Returns a bare sentinel.", "existing_code": "return errBad", "category": "bug", "severity": "medium"},
					map[string]string{"path": p, "content": "Logs without context.", "existing_code": "log.Print", "category": "maintainability", "severity": "low"})
			}
			return llmtest.Calls(llmtest.Tool("code_comment", map[string]any{"comments": items}))
		}
		return llmtest.Calls(llmtest.Done())
	}
}

// choice answers the choice request: "N: L" with the last place shown for
// each comment, or "N: ?".
func choice(prompt string, mode int) string {
	var b strings.Builder
	for _, part := range strings.Split(prompt, "</comment>") {
		n := choiceComment.FindStringSubmatch(part)
		places := choicePlaceAt.FindAllStringSubmatch(part, -1)
		if n == nil || len(places) == 0 {
			continue
		}
		line := "?"
		if mode == modelChooses {
			line = places[len(places)-1][1]
		}
		fmt.Fprintf(&b, "%s: %s\n", n[1], line)
	}
	return b.String()
}

// stubbornRun reviews the eleven files with the model answering as mode
// says, and returns the output, the requests sent and the prompt tokens
// of the choice requests.
func stubbornRun(t *testing.T, mode int) (out Output, n, asking int) {
	base, head := stubbornChange()
	f := newFixture(t, base, head)
	srv := llmtest.New(t)
	srv.SetRecord(true)
	srv.Handle(stubbornModel(mode))
	out = New(Config{}, client(t, srv, nil), tools.Default()).Review(context.Background(), f.input)
	for _, r := range srv.Requests() {
		if strings.HasPrefix(r.Body.Messages[0].Content, chooseMark) {
			asking += r.Size / 4 // the fake's usage: a token per 4 bytes
		}
	}
	return out, srv.Count(), asking
}

// Issue 23, item 10: the question where an ambiguous comment belongs costs
// at most +25% prompt tokens on a run where every quote is ambiguous,
// against the same run without it (its cost in the review's conversation
// was +50.5%). The choice moves each comment to the place named; a model
// that cannot tell leaves every comment held, marked ambiguous.
func TestAmbiguityQuestionCost(t *testing.T) {
	for _, mode := range []int{modelIgnores, modelChooses} {
		out, n, asking := stubbornRun(t, mode)
		without := out.Usage.PromptTokens - asking
		pct := 100 * float64(asking) / float64(without)
		t.Logf("mode %d: %d files, %d groups, every quote ambiguous: %d requests, %d prompt tokens; without the question %d (%+.1f%%)",
			mode, stubbornFiles, len(out.Groups), n, out.Usage.PromptTokens, without, pct)
		if pct > 25 {
			t.Errorf("mode %d: the question costs %+.1f%% prompt tokens, want at most +25%%", mode, pct)
		}
		if len(out.Comments) != 2*stubbornFiles {
			t.Errorf("%d comments, want %d (none lost, none twice)", len(out.Comments), 2*stubbornFiles)
		}
		for _, c := range out.Comments {
			held := len(c.Candidates) > 0 && (c.StartLine == 5 || c.StartLine == 7)
			moved := len(c.Candidates) == 0 && (c.StartLine == 13 || c.StartLine == 15)
			if mode == modelIgnores && !held || mode == modelChooses && !moved {
				t.Errorf("mode %d: %s:%d %q candidates %v: want it held at the first place, marked ambiguous, or moved to the place chosen", mode, c.Path, c.StartLine, c.ExistingCode, c.Candidates)
			}
		}
	}
}
