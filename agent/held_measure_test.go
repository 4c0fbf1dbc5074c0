package agent

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	openai "github.com/sashabaranov/go-openai"

	"github.com/ocr-ci/ocr/internal/testkit/llmtest"
	"github.com/ocr-ci/ocr/tools"
)

// The ordinary review of issue 13: real Go files (a snapshot of this
// repository's diff parser and resolver in testdata/ordinary, frozen so
// that edits to anchor do not move the figure) where every sixth line is
// added, one file per group, and a scripted model that reads the file,
// searches once, then comments on two added lines quoting a run of 1-4
// lines from there (as a model copies code from the diff), then finishes.
// When a quote is ambiguous the agent asks where it belongs in a request
// of its own: the model that follows names the planned line, the one that
// ignores it answers "?". The test measures the extra requests the
// question costs (target < 10%), and checks that no finding appears twice
// and every answered one lands on its line.

var ordinaryFiles = []string{"changeset.go", "fuzzy.go", "match.go", "match_seq.go", "match_snippet.go", "parse.go", "parse_hunk.go", "resolve.go", "resolve_rank.go", "parse_header.go"}

// ordinaryReview is the scripted model's plan for one file: the head's
// lines and the 0-based start and length of each comment's quote.
type ordinaryReview struct {
	head   []string
	starts []int
	lens   []int
}

func ordinaryChange(t *testing.T) (base, head map[string]string, plans map[string]ordinaryReview) {
	base, head, plans = map[string]string{}, map[string]string{}, map[string]ordinaryReview{}
	for fi, name := range ordinaryFiles {
		b, err := os.ReadFile(filepath.Join("testdata", "ordinary", name+".txt"))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
		var kept, added []int
		for i := range lines {
			if i%6 == 3 && strings.TrimSpace(lines[i]) != "" {
				added = append(added, i)
				continue
			}
			kept = append(kept, i)
		}
		var bs strings.Builder
		for _, i := range kept {
			bs.WriteString(lines[i] + "\n")
		}
		p := "anchor/" + name
		base[p], head[p] = bs.String(), string(b)
		var plan ordinaryReview
		plan.head = lines
		for j := range 2 {
			plan.starts = append(plan.starts, added[(2*j+1)*len(added)/4])
			plan.lens = append(plan.lens, 1+(fi+j)%4)
		}
		plans[p] = plan
	}
	return base, head, plans
}

// ordinaryModel answers as the scripted model described above.
func ordinaryModel(plans map[string]ordinaryReview, follow bool, answered *int, mu *sync.Mutex) func(llmtest.Request) llmtest.Answer {
	return func(r llmtest.Request) llmtest.Answer {
		if strings.HasPrefix(r.Body.Messages[0].Content, chooseMark) {
			return llmtest.Text(ordinaryChoice(r.FirstUser(), plans, follow, answered, mu))
		}
		m := firstFile.FindStringSubmatch(r.FirstUser())
		if m == nil {
			return llmtest.Text("NONE")
		}
		path, plan := m[1], plans[m[1]]
		step := 0
		for _, msg := range r.Body.Messages {
			if msg.Role == openai.ChatMessageRoleAssistant {
				step++
			}
		}
		quote := func(j int) map[string]string {
			s := plan.starts[j]
			code := strings.Join(plan.head[s:min(len(plan.head), s+plan.lens[j])], "\n")
			return map[string]string{"content": fmt.Sprintf("Finding %d: check this.", j), "existing_code": code, "category": "bug", "severity": "medium"}
		}
		switch step {
		case 0:
			return llmtest.Calls(llmtest.Tool("file_read", map[string]any{"file_path": path, "start_line": 1, "end_line": 60}))
		case 1:
			return llmtest.Calls(llmtest.Tool("code_search", map[string]any{"search_text": "func "}))
		case 2:
			return llmtest.Calls(llmtest.Tool("code_comment", map[string]any{"comments": []map[string]string{quote(0), quote(1)}}))
		}
		return llmtest.Calls(llmtest.Done())
	}
}

func TestOrdinaryReviewExtraRequests(t *testing.T) {
	base, head, plans := ordinaryChange(t)
	// run returns the output, the requests, the choice requests and their
	// prompt tokens, and the comments placed by an answer.
	run := func(follow bool) (out Output, n, asks, asking, answered int) {
		f := newFixture(t, copyMap(base), copyMap(head))
		srv := llmtest.New(t)
		srv.SetRecord(true)
		var mu sync.Mutex
		srv.Handle(ordinaryModel(plans, follow, &answered, &mu))
		out = New(Config{GroupFiles: 1, Concurrency: 2}, client(t, srv, nil), tools.Default()).Review(context.Background(), f.input)
		for _, r := range srv.Requests() {
			if strings.HasPrefix(r.Body.Messages[0].Content, chooseMark) {
				asks++
				asking += r.Size / 4 // the fake's usage: a token per 4 bytes
			}
		}
		return out, srv.Count(), asks, asking, answered
	}
	ignored, _, _, _, _ := run(false)
	followed, n, asks, asking, answered := run(true)
	extra := 100 * float64(asks) / float64(n-asks)
	exact := func(out Output) int {
		hits := 0
		for _, c := range out.Comments {
			var j int
			if _, err := fmt.Sscanf(c.Content, "Finding %d:", &j); err != nil {
				t.Fatalf("comment %q: %v", c.Content, err)
			}
			if c.StartLine == plans[c.Path].starts[j]+1 {
				hits++
			}
		}
		return hits
	}
	t.Logf("ordinary review: %d files, %d comments; %d requests, %d of them questions (+%.1f%% requests); %d prompt tokens, %d in the questions (+%.1f%%); %d answered; exact start line %d answering '?' → %d answering",
		len(ordinaryFiles), 2*len(ordinaryFiles), n, asks, extra, followed.Usage.PromptTokens, asking,
		100*float64(asking)/float64(followed.Usage.PromptTokens-asking), answered, exact(ignored), exact(followed))
	if len(followed.Comments) != 2*len(ordinaryFiles) || len(ignored.Comments) != 2*len(ordinaryFiles) {
		t.Errorf("comments: %d following, %d ignoring; want %d each (no duplicates, none lost)", len(followed.Comments), len(ignored.Comments), 2*len(ordinaryFiles))
	}
	if exact(followed) != 2*len(ordinaryFiles) {
		t.Errorf("answering the question, %d of %d comments are on their line", exact(followed), 2*len(ordinaryFiles))
	}
	if answered == 0 || asks == 0 {
		t.Errorf("no comment was ambiguous: the measure says nothing")
	}
	if extra >= 10 {
		t.Errorf("extra requests %.1f%% >= 10%%", extra)
	}
}

var choiceOf = regexp.MustCompile(`<comment n="(\d+)" path="([^"]+)">\nFinding (\d+):`)

// ordinaryChoice answers the choice request with each comment's planned
// line when the model follows the feedback, "?" otherwise.
func ordinaryChoice(prompt string, plans map[string]ordinaryReview, follow bool, answered *int, mu *sync.Mutex) string {
	var b strings.Builder
	for _, g := range choiceOf.FindAllStringSubmatch(prompt, -1) {
		j, _ := strconv.Atoi(g[3]) // digits only
		line := "?"
		if follow {
			line = strconv.Itoa(plans[g[2]].starts[j] + 1)
			mu.Lock()
			*answered++
			mu.Unlock()
		}
		fmt.Fprintf(&b, "%s: %s\n", g[1], line)
	}
	return b.String()
}
